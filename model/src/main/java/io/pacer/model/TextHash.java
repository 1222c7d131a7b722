package io.pacer.model;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;

/**
 * A 64-bit hash of a campaign's text in a campaigns file (MurmurHash3's mixing, eight bytes at a
 * time): a campaign whose id and text hash are those it had is unchanged. Two different texts of
 * one campaign sharing a hash would hide an edit; the chance is about one in 10^19 per edit.
 */
final class TextHash
{
    private static final VarHandle LONGS = MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.LITTLE_ENDIAN);

    private TextHash()
    {
    }

    /** The hash of {@code bytes[from, to)}. */
    static long of(final byte[] bytes, final int from, final int to)
    {
        long h = 0x9E3779B97F4A7C15L ^ (to - from);
        int i = from;
        for (; i + Long.BYTES <= to; i += Long.BYTES)
        {
            h ^= mix((long)LONGS.get(bytes, i));
            h = Long.rotateLeft(h, 27) * 5 + 0x52DCE729;
        }
        for (; i < to; i++)
        {
            h ^= mix(bytes[i] & 0xFF);
            h = Long.rotateLeft(h, 27) * 5 + 0x52DCE729;
        }
        h ^= h >>> 33;
        h *= 0xFF51AFD7ED558CCDL;
        h ^= h >>> 33;
        h *= 0xC4CEB9FE1A85EC53L;
        h ^= h >>> 33;
        return h;
    }

    private static long mix(final long k)
    {
        return Long.rotateLeft(k * 0x87C37B91114253D5L, 31) * 0x4CF5AD432745937FL;
    }
}
