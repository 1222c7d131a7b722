package io.pacer.model;

import com.google.errorprone.annotations.Immutable;
import io.pacer.units.DurationMillis;
import io.pacer.units.Units;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The tunable parameters of pacing, shared by every shard. The journal and snapshots record them
 * by name ({@link #tunables()}), so a new tunable is a new component here, a name in
 * {@link #TUNABLE_NAMES} and a default for files written before it existed
 * ({@link #fromTunables}), with no change to any file format.
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

    /**
     * Written out rather than left to the record: its own is bootstrapped through
     * {@code java.lang.runtime.ObjectMethods} on first use, tens of milliseconds of method-handle
     * spinning in a command that compares two policies once (see {@code JournalHeader}).
     */
    @Override
    public boolean equals(final Object other)
    {
        return other instanceof PacingPolicy that && reservationTtlMillis == that.reservationTtlMillis &&
            replanIntervalMillis == that.replanIntervalMillis && noticeDedupeWindowMillis == that.noticeDedupeWindowMillis;
    }

    @Override
    public int hashCode()
    {
        return Long.hashCode(reservationTtlMillis) * 961 + Long.hashCode(replanIntervalMillis) * 31 +
            Long.hashCode(noticeDedupeWindowMillis);
    }

    /** The names under which the tunables are recorded, in recording order. */
    public static final List<String> TUNABLE_NAMES =
        List.of("reservation-ttl-ms", "replan-interval-ms", "notice-dedupe-window-ms");

    /** Every tunable by name, in {@link #TUNABLE_NAMES} order. */
    public Map<String, Long> tunables()
    {
        final Map<String, Long> tunables = new LinkedHashMap<>();
        tunables.put("reservation-ttl-ms", reservationTtlMillis);
        tunables.put("replan-interval-ms", replanIntervalMillis);
        tunables.put("notice-dedupe-window-ms", noticeDedupeWindowMillis);
        return tunables;
    }

    /**
     * The policy recorded as {@code tunables}. A tunable missing from an older file takes the value
     * that reproduces that file's decisions (no dedupe window: 0); one this version does not know
     * cannot be reproduced, and is refused.
     *
     * @throws IllegalArgumentException naming an unknown or missing tunable
     */
    public static PacingPolicy fromTunables(final Map<String, Long> tunables)
    {
        for (final String name : tunables.keySet())
        {
            if (!TUNABLE_NAMES.contains(name))
            {
                throw new IllegalArgumentException("unknown pacing tunable \"" + name + "\" (written by a newer pacer?)");
            }
        }
        return new PacingPolicy(
            Units.durationMillis(required(tunables, "reservation-ttl-ms")),
            Units.durationMillis(required(tunables, "replan-interval-ms")),
            Units.durationMillis(tunables.getOrDefault("notice-dedupe-window-ms", 0L)));
    }

    private static long required(final Map<String, Long> tunables, final String name)
    {
        final Long value = tunables.get(name);
        if (value == null)
        {
            throw new IllegalArgumentException("pacing tunable \"" + name + "\" is missing");
        }
        return value;
    }
}
