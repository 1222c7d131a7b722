package io.pacer.wire;

import org.agrona.DirectBuffer;
import org.agrona.MutableDirectBuffer;

import java.nio.ByteOrder;

/**
 * The Simple Open Framing Header (FIX Trading Community) before every SBE message: a 4-byte
 * big-endian frame length (header included) and a 2-byte big-endian encoding type. SBE schemas
 * cannot declare a big-endian prefix, so it is read and written here by hand.
 */
public final class Sofh
{
    /** Bytes of the SOFH itself. */
    public static final int LENGTH = 6;
    /** SOFH plus the 8-byte SBE message header: the smallest legal frame. */
    public static final int FRAME_HEADER_LENGTH = 14;
    /** SBE 1.0, little-endian. */
    public static final int SBE_LITTLE_ENDIAN = 0xEB50;

    private Sofh()
    {
    }

    /** The frame's length, as an unsigned 32-bit value. */
    public static long messageLength(final DirectBuffer buffer, final int offset)
    {
        return buffer.getInt(offset, ByteOrder.BIG_ENDIAN) & 0xFFFF_FFFFL;
    }

    public static int encodingType(final DirectBuffer buffer, final int offset)
    {
        return buffer.getShort(offset + 4, ByteOrder.BIG_ENDIAN) & 0xFFFF;
    }

    /** Writes a SOFH for a frame of {@code frameLength} bytes. */
    public static void write(final MutableDirectBuffer buffer, final int offset, final int frameLength)
    {
        buffer.putInt(offset, frameLength, ByteOrder.BIG_ENDIAN);
        buffer.putShort(offset + 4, (short)SBE_LITTLE_ENDIAN, ByteOrder.BIG_ENDIAN);
    }
}
