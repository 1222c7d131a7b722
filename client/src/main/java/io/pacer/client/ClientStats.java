package io.pacer.client;

import java.util.concurrent.atomic.LongAdder;

/**
 * What the client has done, counted from several threads without locks ({@link LongAdder}):
 * read by tests, the load generator and {@link ClientMetrics}.
 */
public final class ClientStats
{
    /** A count the client keeps. */
    public enum Count
    {
        /** Bid requests written to a connection. */
        BIDS_SENT,
        /** BID answers from the pacer. */
        ANSWERED_BID,
        /** NO_BID answers from the pacer. */
        ANSWERED_NO_BID,
        /** NO_BIDs the client gave by itself: {@link ClientReason#DEADLINE_EXCEEDED}. */
        FAILSAFE_DEADLINE,
        /** ... {@link ClientReason#CONNECTION_LOST}. */
        FAILSAFE_CONNECTION_LOST,
        /** ... {@link ClientReason#NOT_CONNECTED}. */
        FAILSAFE_NOT_CONNECTED,
        /** ... {@link ClientReason#BACK_PRESSURED}. */
        FAILSAFE_BACK_PRESSURED,
        /** ... {@link ClientReason#CLOSED}. */
        FAILSAFE_CLOSED,
        /** Answers that came after their deadline (or for no request this client has in flight). */
        LATE_ANSWERS,
        /** Win and loss notices written, resends included. */
        NOTICES_SENT,
        /** Notices written again because the connection they were written to dropped before they were known to be read. */
        NOTICES_RESENT,
        /** Notices known to be read by the pacer (a later bid on their connection was answered). */
        NOTICES_ACKNOWLEDGED,
        /** LossNotices the client sent by itself, for bids it failed safe (deadline, dropped connection). */
        RELEASES,
        /** Probe requests, sent to learn that notices were read when no bid followed them. */
        PROBES,
        /** Connections made again after a drop. */
        RECONNECTS,
        /** Error frames from the pacer (a frame this client sent was refused), and frames it could not parse. */
        PACER_ERRORS
    }

    private static final Count[] COUNTS = Count.values();
    private final LongAdder[] adders = new LongAdder[COUNTS.length];

    ClientStats()
    {
        for (int i = 0; i < adders.length; i++)
        {
            adders[i] = new LongAdder();
        }
    }

    void increment(final Count count)
    {
        adders[count.ordinal()].increment();
    }

    void add(final Count count, final long delta)
    {
        adders[count.ordinal()].add(delta);
    }

    void failSafe(final int reason)
    {
        increment(COUNTS[Count.FAILSAFE_DEADLINE.ordinal() + reason - ClientReason.DEADLINE_EXCEEDED]);
    }

    /** The count so far. */
    public long get(final Count count)
    {
        return adders[count.ordinal()].sum();
    }

    /** Every fail-safe NO_BID, whatever its reason. */
    public long failSafes()
    {
        long sum = 0;
        for (int i = Count.FAILSAFE_DEADLINE.ordinal(); i <= Count.FAILSAFE_CLOSED.ordinal(); i++)
        {
            sum += adders[i].sum();
        }
        return sum;
    }

    @Override
    public String toString()
    {
        final StringBuilder s = new StringBuilder("ClientStats{");
        for (final Count count : COUNTS)
        {
            s.append(count.name().toLowerCase(java.util.Locale.ROOT)).append('=').append(get(count)).append(count.ordinal() + 1 < COUNTS.length ? ", " : "}");
        }
        return s.toString();
    }
}
