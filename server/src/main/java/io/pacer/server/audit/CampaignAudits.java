package io.pacer.server.audit;

import org.agrona.collections.Long2LongHashMap;

import java.util.Arrays;

/**
 * What the audit counts per campaign (bids, wins, NO_BIDs by reason, the peak of spent + reserved),
 * as rows of {@code long}s in one array, found by campaign id through a map whose keys and values
 * sit side by side.
 *
 * <p>The audit is told of every record of a replay, so this lookup is on the replay's path: a
 * {@code Long2ObjectHashMap} of objects each holding an array of reasons was four dependent loads a
 * record (key, value, object, array), ~11% of a 10M-event replay's main thread with only 1,000
 * campaigns. Here it is two: the map's entry, then the row.
 */
final class CampaignAudits
{
    private static final int BIDS = 0;
    private static final int WINS = 1;
    private static final int PEAK_COMMITTED = 2;
    /** NO_BIDs for reason code {@code r} at {@code NO_BIDS + r} (code 0 is BID and stays 0). */
    private static final int NO_BIDS = 3;
    /** Reason codes 0 to 7, as the wire has them (NULL_VAL aside). */
    private static final int REASONS = 8;
    private static final int ROW = NO_BIDS + REASONS;

    /** Campaign id to its row's offset in {@link #rows}. */
    private final Long2LongHashMap offsets = new Long2LongHashMap(-1);
    private long[] rows = new long[64 * ROW];

    /** The offset of campaign {@code id}'s row, added (all zeros) if it has none yet. */
    int row(final long id)
    {
        final long offset = offsets.get(id);
        return offset >= 0 ? (int)offset : add(id);
    }

    /** How many campaigns have a row. */
    int size()
    {
        return offsets.size();
    }

    /**
     * The offset of campaign {@code id}'s row, or -1 if it has none (none is added): the first half
     * of a touch. A replay touches a block's rows before it applies the block, so that their misses
     * overlap (with a million campaigns, the map's entry and the row were each a miss a record, ~38%
     * of a replay's main thread): first the block's map entries, then their rows
     * ({@link #touchRow}), so that no miss waits on another.
     */
    long offsetOf(final long id)
    {
        return offsets.get(id);
    }

    /**
     * Reads the row at {@code offset}, from {@link #offsetOf} (-1 reads nothing), and changes nothing.
     *
     * @return what was read (means nothing)
     */
    long touchRow(final long offset)
    {
        return offset >= 0 ? rows[(int)offset] : offset;
    }

    /** The offset of campaign {@code id}'s row; it must have one. */
    int existingRow(final long id)
    {
        final long offset = offsets.get(id);
        if (offset < 0)
        {
            throw new IllegalArgumentException("no audit row for campaign " + Long.toUnsignedString(id));
        }
        return (int)offset;
    }

    void countBid(final int row)
    {
        rows[row + BIDS]++;
    }

    void countWin(final int row)
    {
        rows[row + WINS]++;
    }

    /**
     * Counts a NO_BID for reason code {@code reason} (1 to 7).
     *
     * @throws IllegalArgumentException for a code the wire does not have (it would count in the next campaign's row)
     */
    void countNoBid(final int row, final int reason)
    {
        if (reason <= 0 || reason >= REASONS)
        {
            throw new IllegalArgumentException("NO_BID reason code " + reason + " is not one the wire has (1 to " +
                (REASONS - 1) + ")");
        }
        rows[row + NO_BIDS + reason]++;
    }

    void peakCommitted(final int row, final long committedNanos)
    {
        rows[row + PEAK_COMMITTED] = Math.max(rows[row + PEAK_COMMITTED], committedNanos);
    }

    long bids(final int row)
    {
        return rows[row + BIDS];
    }

    long wins(final int row)
    {
        return rows[row + WINS];
    }

    long peakCommittedNanos(final int row)
    {
        return rows[row + PEAK_COMMITTED];
    }

    /** NO_BIDs for reason code {@code reason}; 0 for code 0 (BID). */
    long noBids(final int row, final int reason)
    {
        return rows[row + NO_BIDS + reason];
    }

    /** The reason codes a row can count, 1 to this exclusive. */
    static int reasonCodes()
    {
        return REASONS;
    }

    /** The audited campaign ids in unsigned order. */
    long[] idsInOrder()
    {
        final long[] ids = new long[offsets.size()];
        int n = 0;
        for (final Long2LongHashMap.KeyIterator keys = offsets.keySet().iterator(); keys.hasNext(); )
        {
            ids[n++] = keys.nextValue();
        }
        return unsignedOrder(ids);
    }

    /** Sorts {@code ids} in unsigned order, in place, as primitives (a million boxed took a second and more); returns them. */
    static long[] unsignedOrder(final long[] ids)
    {
        // flipping the sign bit turns unsigned order into signed order, and back
        for (int i = 0; i < ids.length; i++)
        {
            ids[i] ^= Long.MIN_VALUE;
        }
        Arrays.sort(ids);
        for (int i = 0; i < ids.length; i++)
        {
            ids[i] ^= Long.MIN_VALUE;
        }
        return ids;
    }

    private int add(final long id)
    {
        final int offset = offsets.size() * ROW;
        if (offset + ROW > rows.length)
        {
            if (rows.length > Integer.MAX_VALUE / 2)
            {
                throw new IllegalStateException("more campaigns than one audit can count: " + offsets.size());
            }
            rows = Arrays.copyOf(rows, 2 * rows.length);
        }
        offsets.put(id, offset);
        return offset;
    }
}
