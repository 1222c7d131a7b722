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
 * allocates nothing.
 */
public final class ReservationBook
{
    private final Long2ObjectHashMap<Reservation> byRequestId;
    private Reservation oldest;
    private Reservation youngest;
    private Reservation pool;
    private long open;

    /** @param expectedOpen reservations to preallocate (and size the index for) */
    public ReservationBook(final int expectedOpen)
    {
        byRequestId = new Long2ObjectHashMap<>(Math.max(16, expectedOpen * 2), 0.65f);
        for (int i = 0; i < expectedOpen; i++)
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
     * nothing (see {@link PacingShard#touch}).
     */
    long touch(final long requestId)
    {
        final Reservation r = byRequestId.get(requestId);
        return r == null ? 0 : r.campaignId;
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
