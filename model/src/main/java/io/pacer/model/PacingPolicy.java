package io.pacer.model;

import com.google.errorprone.annotations.Immutable;
import io.pacer.units.DurationMillis;
import io.pacer.units.Units;

/**
 * The tunable parameters of pacing, shared by every shard.
 *
 * @param reservationTtlMillis      how long a BID's reservation waits for its win or loss notice
 * @param replanIntervalMillis      how often an EVEN campaign's plan is re-drawn from what it has
 *                                  committed; shorter reacts faster to a lull, longer smooths more
 * @param noticeDedupeWindowMillis  how long a settled notice is remembered, so that a resent one is
 *                                  booked once (protocol.md); 0 remembers none (journals written
 *                                  before the window existed replay that way)
 */
@Immutable
public record PacingPolicy(@DurationMillis long reservationTtlMillis, @DurationMillis long replanIntervalMillis,
    @DurationMillis long noticeDedupeWindowMillis)
{
    /** Defaults matching {@code reference.conf}. */
    public static final PacingPolicy DEFAULT = new PacingPolicy(Units.durationMillis(30_000),
        Units.durationMillis(1_000));

    public PacingPolicy
    {
        if (reservationTtlMillis <= 0)
        {
            throw new IllegalArgumentException("reservationTtlMillis must be > 0, was " + reservationTtlMillis);
        }
        if (replanIntervalMillis <= 0 || replanIntervalMillis > 3_600_000)
        {
            throw new IllegalArgumentException("replanIntervalMillis must be > 0 and at most 1h, was " + replanIntervalMillis + " ms");
        }
        if (noticeDedupeWindowMillis != 0 && noticeDedupeWindowMillis < 2 * reservationTtlMillis)
        {
            throw new IllegalArgumentException("noticeDedupeWindowMillis must be at least twice the reservation TTL (" +
                2 * reservationTtlMillis + " ms), or 0 for none; was " + noticeDedupeWindowMillis);
        }
    }

    /** A policy whose dedupe window is twice the reservation TTL, the protocol's minimum. */
    public PacingPolicy(final @DurationMillis long reservationTtlMillis,
        final @DurationMillis long replanIntervalMillis)
    {
        this(reservationTtlMillis, replanIntervalMillis, 2 * reservationTtlMillis);
    }
}
