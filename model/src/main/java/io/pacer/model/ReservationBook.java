package io.pacer.model;

import io.pacer.units.CurrencyNanos;
import io.pacer.units.EpochMillis;
import io.pacer.units.Units;
import org.agrona.collections.Long2ObjectHashMap;

/**
 * The open reservations of one shard: found by (request id, campaign id) when a notice arrives,
 * and expired in deadline order as event time advances.
 *
 * <p>Every reservation gets the same time-to-live and shard time never goes backwards, so
 * deadlines are created in order: a FIFO list is an exact expiry queue, with O(1) open, match
 * and expire and no timer wheel to tune. Reservation objects are pooled, so steady-state traffic
 * allocates nothing. The index by request id is Agrona's, and it grows (a new pair of arrays, a
 * rehash, in the insertion that crosses its threshold) each time the open count reaches a new high:
 * a handful of times in a shard's life, the trade for an index the size of what is open rather
 * than of the most that might ever be (see {@link #INITIAL_INDEX_SLOTS}).
 */
public final class ReservationBook
{
    /**
     * Index slots at first. The index grows (doubling) with the reservations open, and starts small:
     * made for 65,536, its 1.5 MB held the few hundred open under a closed-loop load so sparsely that
     * every bid's insertion and every notice's lookup missed the cache (0.14-0.2 µs of a decision's
     * 2.2 in a profile of the live server). A shard that once holds 65,536 open grows it six times,
     * to 131,072 slots, moving about 84,000 entries in all, the last 42,600 in one insertion.
     */
    static final int INITIAL_INDEX_SLOTS = 1 << 11;
    /**
     * From this many index slots (384 KB of keys and values), lookups miss the cache often enough to
     * be worth {@link #note noting} and touching ahead.
     */
    static final int TOUCH_FROM_INDEX_SLOTS = 1 << 15;

    private final Long2ObjectHashMap<Reservation> byRequestId;
    private Reservation oldest;
    private Reservation youngest;
    private Reservation pool;
    private long open;
    private final long[] noted = new long[PacingShard.NOTED];
    private int notedCount;

    /**
     * @param pooled reservations to make up front, so that a shard opening up to that many makes no
     *               {@link Reservation} (its index still grows as they open; see {@link #INITIAL_INDEX_SLOTS})
     */
    public ReservationBook(final int pooled)
    {
        byRequestId = new Long2ObjectHashMap<>(INITIAL_INDEX_SLOTS, 0.65f);
        for (int i = 0; i < pooled; i++)
        {
            final Reservation r = new Reservation();
            r.younger = pool;
            pool = r;
        }
    }

    /** Records a reservation of {@code costNanos} for {@code campaign}, due at {@code deadlineMillis}. */
    public void open(
        final long requestId, final long campaignId, final CampaignBook campaign, final @CurrencyNanos long costNanos,
        final @EpochMillis long deadlineMillis)
    {
        Reservation r = pool;
        if (r != null)
        {
            pool = r.younger;
        }
        else
        {
            r = new Reservation();
        }
        r.requestId = requestId;
        r.campaignId = campaignId;
        r.campaign = campaign;
        r.costNanos = costNanos;
        r.deadlineMillis = deadlineMillis;
        r.older = youngest;
        r.younger = null;
        if (youngest != null)
        {
            youngest.younger = r;
        }
        else
        {
            oldest = r;
        }
        youngest = r;
        r.sameRequest = byRequestId.put(requestId, r);
        open++;
    }

    /**
     * Removes and returns the open reservation for this request and campaign, or null when there
     * is none (late, duplicate or unknown notice). Hand it back with {@link #recycle} when done.
     */
    public Reservation take(final long requestId, final long campaignId)
    {
        final Reservation head = byRequestId.get(requestId);
        Reservation previous = null;
        for (Reservation r = head; r != null; previous = r, r = r.sameRequest)
        {
            if (r.campaignId == campaignId)
            {
                unlinkFromRequest(r, previous);
                unlinkFromQueue(r);
                open--;
                return r;
            }
        }
        return null;
    }

    /**
     * Reads where this request's reservations are indexed, and the first of them, and changes
     * nothing.
     */
    long touch(final long requestId)
    {
        final Reservation r = byRequestId.get(requestId);
        return r == null ? 0 : r.campaignId;
    }

    /** Whether the index is large enough ({@link #TOUCH_FROM_INDEX_SLOTS}) for {@link #note} to note anything. */
    boolean touches()
    {
        return byRequestId.capacity() >= TOUCH_FROM_INDEX_SLOTS;
    }

    /**
     * Notes, reading nothing, that request {@code requestId}'s reservations will be looked up (a bid
     * inserts one, a notice takes one), for {@link #touchNoted}; notes nothing while the index is
     * small enough to stay in cache, or past {@link PacingShard#NOTED} notes.
     */
    void note(final long requestId)
    {
        if (notedCount < PacingShard.NOTED && touches())
        {
            noted[notedCount++] = requestId;
        }
    }

    /**
     * Reads where the requests {@link #note noted} since the last call are indexed, and forgets the
     * notes: a loop of lookups independent of each other, so that their misses overlap.
     *
     * @return what was read (means nothing: keep it, so the reads are not optimised away)
     */
    long touchNoted()
    {
        long read = 0;
        for (int i = 0; i < notedCount; i++)
        {
            read += touch(noted[i]);
        }
        notedCount = 0;
        return read;
    }

    /**
     * Removes and returns the oldest reservation if its deadline is at or before
     * {@code nowMillis}, else null. Hand it back with {@link #recycle} when done.
     */
    public Reservation pollExpired(final @EpochMillis long nowMillis)
    {
        final Reservation r = oldest;
        if (r == null || r.deadlineMillis > nowMillis)
        {
            return null;
        }
        Reservation previous = null;
        for (Reservation s = byRequestId.get(r.requestId); s != r; s = s.sameRequest)
        {
            previous = s;
        }
        unlinkFromRequest(r, previous);
        unlinkFromQueue(r);
        open--;
        return r;
    }

    /** Returns a reservation taken from this book to the pool. */
    public void recycle(final Reservation r)
    {
        r.campaign = null;
        r.older = null;
        r.sameRequest = null;
        r.younger = pool;
        pool = r;
    }

    /** Writes the open reservations, oldest first, for a snapshot. */
    void write(final java.io.DataOutput out) throws java.io.IOException
    {
        out.writeLong(open);
        for (Reservation r = oldest; r != null; r = r.younger)
        {
            out.writeLong(r.requestId);
            out.writeLong(r.campaignId);
            out.writeLong(r.costNanos);
            out.writeLong(r.deadlineMillis);
        }
    }

    /** Reopens what {@link #write} wrote, in the same order; campaigns come from {@code books}. */
    void read(final java.io.DataInput in, final CampaignTable books) throws java.io.IOException
    {
        final long count = in.readLong();
        for (long i = 0; i < count; i++)
        {
            final long requestId = in.readLong();
            final long campaignId = in.readLong();
            open(requestId, campaignId, books.get(campaignId), Units.currencyNanos(in.readLong()),
                Units.epochMillis(in.readLong()));
        }
    }

    /** Number of open reservations. */
    public long openCount()
    {
        return open;
    }

    private void unlinkFromRequest(final Reservation r, final Reservation previous)
    {
        if (previous != null)
        {
            previous.sameRequest = r.sameRequest;
        }
        else if (r.sameRequest != null)
        {
            byRequestId.put(r.requestId, r.sameRequest);
        }
        else
        {
            byRequestId.remove(r.requestId);
        }
    }

    private void unlinkFromQueue(final Reservation r)
    {
        if (r.older != null)
        {
            r.older.younger = r.younger;
        }
        else
        {
            oldest = r.younger;
        }
        if (r.younger != null)
        {
            r.younger.older = r.older;
        }
        else
        {
            youngest = r.older;
        }
    }
}
