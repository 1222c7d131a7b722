package io.pacer.model;

import org.agrona.collections.Long2ObjectHashMap;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;

/**
 * A campaigns file as last parsed, campaign by campaign: the definition each campaign's text gave,
 * by a 64-bit hash of that text. A re-read parses only the campaigns whose text it does not find
 * here and takes the others' definitions as they were: an edit of one campaign in a file of a
 * million parses one campaign. Two different texts sharing a hash would hide an edit; at a
 * million campaigns the chance is about one in 10^7 per edited campaign.
 */
public final class CampaignFileIndex
{
    private static final VarHandle LONGS = MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.LITTLE_ENDIAN);

    private final Long2ObjectHashMap<CampaignDefinition> byHash;

    /** An empty index: everything is parsed. */
    public CampaignFileIndex()
    {
        this(0);
    }

    CampaignFileIndex(final int expected)
    {
        byHash = new Long2ObjectHashMap<>(Math.max(8, (int)(expected / 0.65f) + 1), 0.65f);
    }

    /** A new index of only the texts whose hashes are {@code hashes[0, count)}. */
    CampaignFileIndex retainOnly(final long[] hashes, final int count)
    {
        final CampaignFileIndex retained = new CampaignFileIndex(count);
        for (int i = 0; i < count; i++)
        {
            retained.put(hashes[i], get(hashes[i]));
        }
        return retained;
    }

    /** The definition the text with this hash gave, or null. */
    CampaignDefinition get(final long hash)
    {
        return byHash.get(hash);
    }

    void put(final long hash, final CampaignDefinition definition)
    {
        byHash.put(hash, definition);
    }

    /** Campaign texts indexed. */
    public int size()
    {
        return byHash.size();
    }

    /** A 64-bit hash of {@code bytes[from, to)} (MurmurHash3's mixing, eight bytes at a time). */
    static long hash(final byte[] bytes, final int from, final int to)
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
