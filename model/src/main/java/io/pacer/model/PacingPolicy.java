package io.pacer.model;

/**
 * The tunable parameters of pacing, shared by every shard.
 *
 * @param reservationTtlMillis how long a BID's reservation waits for its win or loss notice
 * @param replanIntervalMillis how often an EVEN campaign's plan is re-drawn from what it has
 *                             committed; shorter reacts faster to a lull, longer smooths more
 */
public record PacingPolicy(long reservationTtlMillis, long replanIntervalMillis)
{
    /** Defaults matching {@code reference.conf}. */
    public static final PacingPolicy DEFAULT = new PacingPolicy(30_000, 1_000);

    public PacingPolicy
    {
        if (reservationTtlMillis <= 0)
        {
            throw new IllegalArgumentException("reservationTtlMillis must be > 0, was " + reservationTtlMillis);
        }
        if (replanIntervalMillis <= 0 || replanIntervalMillis > 3_600_000)
        {
            throw new IllegalArgumentException("replanIntervalMillis must be in (0, 1h], was " + replanIntervalMillis);
        }
    }
}
