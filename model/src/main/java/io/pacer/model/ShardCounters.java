package io.pacer.model;

import io.pacer.wire.Reason;

/**
 * Plain counters kept by one shard's thread as it decides. Read by others only through a
 * published copy (monitoring) or after the thread has stopped (tests, replay).
 */
public final class ShardCounters
{
    /** Decisions by {@link Reason#value()}; index 0 counts BIDs. */
    final long[] decisionsByReason = new long[8];
    long matchedWins;
    long lateWins;
    long losses;
    long unmatchedLosses;
    long expiredReservations;
    long unknownCampaignNotices;
    long invalidNotices;
    long definitions;
    long bookedNanos;
    long reservedNanos;
    long openReservations;
    long activeCampaigns;
    long pausedCampaigns;

    void write(final java.io.DataOutput out) throws java.io.IOException
    {
        for (final long v : decisionsByReason)
        {
            out.writeLong(v);
        }
        for (final long v : new long[] {matchedWins, lateWins, losses, unmatchedLosses, expiredReservations,
            unknownCampaignNotices, invalidNotices, definitions, bookedNanos, reservedNanos, openReservations,
            activeCampaigns, pausedCampaigns})
        {
            out.writeLong(v);
        }
    }

    void read(final java.io.DataInput in) throws java.io.IOException
    {
        for (int i = 0; i < decisionsByReason.length; i++)
        {
            decisionsByReason[i] = in.readLong();
        }
        matchedWins = in.readLong();
        lateWins = in.readLong();
        losses = in.readLong();
        unmatchedLosses = in.readLong();
        expiredReservations = in.readLong();
        unknownCampaignNotices = in.readLong();
        invalidNotices = in.readLong();
        definitions = in.readLong();
        bookedNanos = in.readLong();
        reservedNanos = in.readLong();
        openReservations = in.readLong();
        activeCampaigns = in.readLong();
        pausedCampaigns = in.readLong();
    }

    /** Decisions with this reason ({@link Reason#NONE} counts BIDs). */
    public long decisions(final Reason reason)
    {
        return decisionsByReason[reason.value()];
    }

    public long matchedWins()
    {
        return matchedWins;
    }

    /** Wins that matched no open reservation (late or duplicate), booked all the same. */
    public long lateWins()
    {
        return lateWins;
    }

    public long losses()
    {
        return losses;
    }

    /** Loss notices that matched no open reservation. */
    public long unmatchedLosses()
    {
        return unmatchedLosses;
    }

    public long expiredReservations()
    {
        return expiredReservations;
    }

    /** Win or loss notices naming a campaign this shard does not know: nothing could be booked. */
    public long unknownCampaignNotices()
    {
        return unknownCampaignNotices;
    }

    /** Win notices with a negative price: ignored. */
    public long invalidNotices()
    {
        return invalidNotices;
    }

    /** Campaign definitions applied. */
    public long definitions()
    {
        return definitions;
    }

    /** Spend booked from win notices, in nanos (saturating). */
    public long bookedNanos()
    {
        return bookedNanos;
    }

    /** Money held by open reservations, in nanos. */
    public long reservedNanos()
    {
        return reservedNanos;
    }

    public long openReservations()
    {
        return openReservations;
    }

    /** Campaigns whose status is ACTIVE (whatever their flight). */
    public long activeCampaigns()
    {
        return activeCampaigns;
    }

    public long pausedCampaigns()
    {
        return pausedCampaigns;
    }
}
