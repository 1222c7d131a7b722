package io.pacer.model;

import io.pacer.units.CurrencyNanos;
import io.pacer.units.Units;

import java.util.concurrent.atomic.AtomicLongArray;

import io.pacer.wire.Reason;

/**
 * Plain counters kept by one shard's thread as it decides. Other threads read them only through
 * the copy the owning thread {@link #publish() publishes} with release stores at the end of each
 * batch ({@link #published(Counter)}: monitoring), or after the thread has stopped (tests,
 * replay: the plain getters).
 */
public final class ShardCounters
{
    /** A counter as another thread reads it, through {@link #published(Counter)}. */
    public enum Counter
    {
        MATCHED_WINS, LATE_WINS, LOSSES, UNMATCHED_LOSSES, EXPIRED_RESERVATIONS, UNKNOWN_CAMPAIGN_NOTICES,
        INVALID_NOTICES, DEFINITIONS, BOOKED_NANOS, RESERVED_NANOS, OPEN_RESERVATIONS, ACTIVE_CAMPAIGNS,
        PAUSED_CAMPAIGNS, DUPLICATE_NOTICES, CONFLICTING_NOTICES
    }

    private static final int DECISIONS = 8;
    private static final Counter[] COUNTERS = Counter.values();

    /** Decisions by {@link Reason#value()}; index 0 counts BIDs. */
    final long[] decisionsByReason = new long[DECISIONS];
    long matchedWins;
    long lateWins;
    long losses;
    long unmatchedLosses;
    long expiredReservations;
    long unknownCampaignNotices;
    long invalidNotices;
    long definitions;
    @CurrencyNanos long bookedNanos;
    @CurrencyNanos long reservedNanos;
    long openReservations;
    long activeCampaigns;
    long pausedCampaigns;
    long duplicateNotices;
    long conflictingNotices;
    /** Decisions by reason, then {@link Counter}s in order: written only by {@link #publish()}. */
    private final AtomicLongArray published = new AtomicLongArray(DECISIONS + COUNTERS.length);

    /**
     * On the owning thread, at the end of a batch: copies every counter to the published view
     * with release stores (no lock, no read-modify-write), for other threads to read.
     */
    public void publish()
    {
        for (int i = 0; i < DECISIONS; i++)
        {
            published.lazySet(i, decisionsByReason[i]);
        }
        for (final Counter counter : COUNTERS)
        {
            published.lazySet(DECISIONS + counter.ordinal(), plain(counter));
        }
    }

    /** Any thread: the counter as last published. */
    public long published(final Counter counter)
    {
        return published.get(DECISIONS + counter.ordinal());
    }

    /** Any thread: decisions with this reason as last published. */
    public long publishedDecisions(final Reason reason)
    {
        return published.get(reason.value());
    }

    private long plain(final Counter counter)
    {
        return switch (counter)
        {
            case MATCHED_WINS -> matchedWins;
            case LATE_WINS -> lateWins;
            case LOSSES -> losses;
            case UNMATCHED_LOSSES -> unmatchedLosses;
            case EXPIRED_RESERVATIONS -> expiredReservations;
            case UNKNOWN_CAMPAIGN_NOTICES -> unknownCampaignNotices;
            case INVALID_NOTICES -> invalidNotices;
            case DEFINITIONS -> definitions;
            case BOOKED_NANOS -> bookedNanos;
            case RESERVED_NANOS -> reservedNanos;
            case OPEN_RESERVATIONS -> openReservations;
            case ACTIVE_CAMPAIGNS -> activeCampaigns;
            case PAUSED_CAMPAIGNS -> pausedCampaigns;
            case DUPLICATE_NOTICES -> duplicateNotices;
            case CONFLICTING_NOTICES -> conflictingNotices;
        };
    }

    void write(final java.io.DataOutput out) throws java.io.IOException
    {
        for (final long v : decisionsByReason)
        {
            out.writeLong(v);
        }
        for (final long v : new long[] {matchedWins, lateWins, losses, unmatchedLosses, expiredReservations,
            unknownCampaignNotices, invalidNotices, definitions, bookedNanos, reservedNanos, openReservations,
            activeCampaigns, pausedCampaigns, duplicateNotices, conflictingNotices})
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
        bookedNanos = Units.currencyNanos(in.readLong());
        reservedNanos = Units.currencyNanos(in.readLong());
        openReservations = in.readLong();
        activeCampaigns = in.readLong();
        pausedCampaigns = in.readLong();
        duplicateNotices = in.readLong();
        conflictingNotices = in.readLong();
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

    /** Wins that matched no open reservation and no settled notice (late), booked all the same. */
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
    public @CurrencyNanos long bookedNanos()
    {
        return bookedNanos;
    }

    /** Money held by open reservations, in nanos. */
    public @CurrencyNanos long reservedNanos()
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

    /**
     * Notices that changed nothing because their request was already settled within the dedupe
     * window: a second win, a second loss, or a loss after a win.
     */
    public long duplicateNotices()
    {
        return duplicateNotices;
    }

    /** Wins after a settled loss for the same request: booked once, the exchange's word on money. */
    public long conflictingNotices()
    {
        return conflictingNotices;
    }
}
