package io.pacer.model;

import java.util.Arrays;

/**
 * A shard's campaign ids in unsigned order, for pages and snapshots: kept as a sorted array of the
 * ids with their sign bit flipped (so that a signed sort orders them unsigned), and sorted again
 * only when campaigns were added since (campaigns are never removed, so a change of count says
 * so). Never iterates the map's hash order into output.
 */
final class CampaignOrder
{
    private long[] keys = new long[0];

    /** The ids of {@code campaigns}, sign bit flipped, ascending; do not modify. */
    long[] keys(final CampaignTable campaigns)
    {
        if (keys.length != campaigns.size())
        {
            final long[] sorted = campaigns.ids();
            for (int i = 0; i < sorted.length; i++)
            {
                sorted[i] ^= Long.MIN_VALUE;
            }
            Arrays.sort(sorted);
            keys = sorted;
        }
        return keys;
    }

    /** Where a page after {@code afterId} starts in {@code keys}. */
    static int after(final long[] keys, final long afterId)
    {
        final int found = Arrays.binarySearch(keys, afterId ^ Long.MIN_VALUE);
        return found >= 0 ? found + 1 : -found - 1;
    }

    /** The campaign id a key stands for. */
    static long id(final long key)
    {
        return key ^ Long.MIN_VALUE;
    }
}
