package io.pacer.wire;

import io.pacer.wire.ErrorCode;
import io.pacer.wire.Reason;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;

import java.util.HexFormat;

import static org.assertj.core.api.Assertions.assertThat;

/** Golden bytes for every message of protocol.md, and the parser's error rules. */
class FrameCodecTest
{
    private final UnsafeBuffer buffer = new UnsafeBuffer(new byte[256]);
    private final FrameEncoder encoder = new FrameEncoder();
    private final FrameParser parser = new FrameParser(1024);
    private final RecordingListener listener = new RecordingListener();

    private String hex(final int length)
    {
        final byte[] bytes = new byte[length];
        buffer.getBytes(0, bytes);
        return HexFormat.ofDelimiter(" ").formatHex(bytes).toUpperCase(java.util.Locale.ROOT);
    }

    private static byte[] bytes(final String hex)
    {
        return HexFormat.of().parseHex(hex.replace(" ", ""));
    }

    @Test
    void shouldEncodeTheWorkedExampleOfProtocolMd()
    {
        final int length = encoder.bidRequest(buffer, 0, 7, 42, 2_500_000);
        assertThat(length).isEqualTo(38);
        assertThat(hex(length)).isEqualTo(
            "00 00 00 26 EB 50 18 00 01 00 01 00 00 00 " +
            "07 00 00 00 00 00 00 00 2A 00 00 00 00 00 00 00 A0 25 26 00 00 00 00 00");
    }

    @Test
    void shouldDecodeTheWorkedExampleOfProtocolMd()
    {
        final byte[] frame = bytes("00000026EB50180001000100 0000" +
            "0700000000000000 2A00000000000000 A025260000000000");
        assertThat(parser.parse(new UnsafeBuffer(frame), 0, frame.length, listener)).isEqualTo(38);
        assertThat(listener.events).containsExactly("bid 7 42 2500000");
    }

    @Test
    void shouldEncodeBidResponseIn30BytesWithZeroReserved()
    {
        buffer.setMemory(0, 64, (byte)0xFF);
        final int length = encoder.bidResponse(buffer, 0, 7, Reason.NONE);
        assertThat(length).isEqualTo(30);
        assertThat(hex(length)).isEqualTo(
            "00 00 00 1E EB 50 10 00 02 00 01 00 00 00 " +
            "07 00 00 00 00 00 00 00 01 00 00 00 00 00 00 00");
        encoder.bidResponse(buffer, 0, 7, Reason.PACING);
        assertThat(hex(30)).endsWith("07 00 00 00 00 00 00 00 00 04 00 00 00 00 00 00");
    }

    @Test
    void shouldEncodeWinNotice()
    {
        final int length = encoder.winNotice(buffer, 0, 7, 42, 1_000_000);
        assertThat(hex(length)).isEqualTo(
            "00 00 00 26 EB 50 18 00 03 00 01 00 00 00 " +
            "07 00 00 00 00 00 00 00 2A 00 00 00 00 00 00 00 40 42 0F 00 00 00 00 00");
    }

    @Test
    void shouldEncodeLossNotice()
    {
        final int length = encoder.lossNotice(buffer, 0, 7, 42);
        assertThat(hex(length)).isEqualTo(
            "00 00 00 1E EB 50 10 00 04 00 01 00 00 00 " +
            "07 00 00 00 00 00 00 00 2A 00 00 00 00 00 00 00");
    }

    @Test
    void shouldEncodeErrorWithZeroReserved()
    {
        buffer.setMemory(0, 64, (byte)0xFF);
        final int length = encoder.error(buffer, 0, 9, ErrorCode.UNKNOWN_TEMPLATE, 77);
        assertThat(hex(length)).isEqualTo(
            "00 00 00 1E EB 50 10 00 05 00 01 00 00 00 " +
            "09 00 00 00 00 00 00 00 03 00 4D 00 00 00 00 00");
    }

    @Test
    void shouldRoundTripEveryMessage()
    {
        int offset = 0;
        offset += encoder.bidRequest(buffer, offset, -1L, -2L, Long.MAX_VALUE);
        offset += encoder.winNotice(buffer, offset, 2, 3, 4);
        offset += encoder.lossNotice(buffer, offset, 5, 6);
        offset += encoder.bidResponse(buffer, offset, 8, Reason.OVERLOADED);
        offset += encoder.error(buffer, offset, 9, ErrorCode.NOT_PERMITTED, 2);
        assertThat(parser.parse(buffer, 0, offset, listener)).isEqualTo(offset);
        assertThat(listener.events).containsExactly(
            "bid -1 -2 " + Long.MAX_VALUE, "win 2 3 4", "loss 5 6", "response 8 0 6", "errorMessage 9 5 2");
    }

    @Test
    void shouldWaitForTheRestOfAPartialFrame()
    {
        final int length = encoder.bidRequest(buffer, 0, 7, 42, 1);
        for (int available = 0; available < length; available++)
        {
            assertThat(parser.parse(buffer, 0, available, listener)).isZero();
        }
        assertThat(listener.events).isEmpty();
        assertThat(parser.parse(buffer, 0, length, listener)).isEqualTo(length);
    }

    @Test
    void shouldReadKnownFieldsAndSkipTheRestOfALongerFrameAndBlock()
    {
        // a later version may append to the block (blockLength 32) and to the frame (8 more bytes)
        final byte[] frame = bytes("00000036EB50200001000100 0100" +
            "0700000000000000 2A00000000000000 A025260000000000 FFFFFFFFFFFFFFFF" +
            "EEEEEEEEEEEEEEEE");
        assertThat(parser.parse(new UnsafeBuffer(frame), 0, frame.length, listener)).isEqualTo(frame.length);
        assertThat(listener.events).containsExactly("bid 7 42 2500000");
    }

    @Test
    void shouldReportMalformedFrameForShortLengthAndStop()
    {
        final byte[] frame = bytes("0000000DEB50");
        assertThat(parser.parse(new UnsafeBuffer(frame), 0, frame.length, listener)).isEqualTo(FrameParser.FRAMING_LOST);
        assertThat(listener.events).containsExactly("invalid MALFORMED_FRAME 0 0");
    }

    @Test
    void shouldReportMalformedFrameAboveTheMaximum()
    {
        final byte[] frame = bytes("00000401EB50");
        assertThat(parser.parse(new UnsafeBuffer(frame), 0, frame.length, listener)).isEqualTo(FrameParser.FRAMING_LOST);
        assertThat(listener.events).containsExactly("invalid MALFORMED_FRAME 0 0");
    }

    @Test
    void shouldReportMalformedFrameForWrongEncodingType()
    {
        final int length = encoder.bidRequest(buffer, 0, 7, 42, 1);
        buffer.putByte(5, (byte)0x51);
        assertThat(parser.parse(buffer, 0, length, listener)).isEqualTo(FrameParser.FRAMING_LOST);
        assertThat(listener.events).containsExactly("invalid MALFORMED_FRAME 0 0");
    }

    @Test
    void shouldSkipFrameWithUnknownSchemaAndCarryOn()
    {
        int length = encoder.bidRequest(buffer, 0, 7, 42, 1);
        buffer.putShort(10, (short)2);
        length += encoder.bidRequest(buffer, length, 8, 42, 1);
        assertThat(parser.parse(buffer, 0, length, listener)).isEqualTo(length);
        assertThat(listener.events).containsExactly("invalid UNKNOWN_SCHEMA 0 1", "bid 8 42 1");
    }

    @Test
    void shouldSkipFrameWithUnknownTemplate()
    {
        final int length = encoder.bidRequest(buffer, 0, 7, 42, 1);
        buffer.putShort(8, (short)99);
        assertThat(parser.parse(buffer, 0, length, listener)).isEqualTo(length);
        assertThat(listener.events).containsExactly("invalid UNKNOWN_TEMPLATE 0 99");
    }

    @Test
    void shouldReportBlockTooShortWhenBlockLengthBelowTheTable()
    {
        final int length = encoder.bidRequest(buffer, 0, 7, 42, 1);
        buffer.putShort(6, (short)16);
        assertThat(parser.parse(buffer, 0, length, listener)).isEqualTo(length);
        assertThat(listener.events).containsExactly("invalid BLOCK_TOO_SHORT 7 1");
    }

    @Test
    void shouldReportBlockTooShortWhenFrameIsShorterThanItsBlock()
    {
        // messageLength 30 but blockLength 24: the frame cannot hold its block
        final int length = encoder.bidRequest(buffer, 0, 7, 42, 1);
        buffer.putInt(0, 30, java.nio.ByteOrder.BIG_ENDIAN);
        assertThat(parser.parseOne(buffer, 0, length, listener)).isEqualTo(30);
        assertThat(listener.events).containsExactly("invalid BLOCK_TOO_SHORT 7 1");
    }

    @Test
    void shouldStopAfterTheFrameThatPausedTheListenerAndLeaveTheRestUnconsumed()
    {
        int length = encoder.winNotice(buffer, 0, 1, 2, 3);
        length += encoder.bidRequest(buffer, length, 4, 5, 6);
        final RecordingListener pausing = new RecordingListener()
        {
            @Override
            public boolean paused()
            {
                return events.size() == 1;
            }
        };
        assertThat(parser.parse(buffer, 0, length, pausing)).isEqualTo(FrameEncoder.WIN_NOTICE_LENGTH);
        assertThat(pausing.events).containsExactly("win 1 2 3");
    }
}
