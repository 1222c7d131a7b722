package io.pacer.units;

/**
 * Where a raw number becomes a quantity, and where instants and durations combine.
 *
 * <p>A raw {@code long} read from JSON, a journal record or a config key has the unit its format
 * documents; these methods say so to the Units Checker, in one greppable place per format reader.
 * They change no value. Converting between units (micros to nanos, a CPM price to the cost of one
 * impression) is {@code io.pacer.model.Money}'s job, never this class's.
 *
 * <p>This module is not itself checked: its return types are trusted by the modules that are.
 */
public final class Units
{
    /** Zero nanos of currency. */
    public static final @CurrencyNanos long ZERO_NANOS = 0L;

    /** No time at all. */
    public static final @DurationMillis long ZERO_MILLIS = 0L;

    /** The earliest instant a {@code long} holds: "never yet", before any event. */
    public static final @EpochMillis long MIN_INSTANT = Long.MIN_VALUE;

    /** The latest instant a {@code long} holds: "not until the end of time". */
    public static final @EpochMillis long MAX_INSTANT = Long.MAX_VALUE;

    private Units()
    {
    }

    /** A raw number documented as micros of currency. */
    public static @CurrencyMicros long currencyMicros(final long raw)
    {
        return raw;
    }

    /** A raw number documented as nanos of currency. */
    public static @CurrencyNanos long currencyNanos(final long raw)
    {
        return raw;
    }

    /** A raw number documented as a CPM price in micros. */
    public static @CpmMicros long cpmMicros(final long raw)
    {
        return raw;
    }

    /** A raw number documented as milliseconds since the epoch. */
    public static @EpochMillis long epochMillis(final long raw)
    {
        return raw;
    }

    /** A raw number documented as a duration in milliseconds. */
    public static @DurationMillis long durationMillis(final long raw)
    {
        return raw;
    }

    /** The instant {@code duration} after {@code instant}. */
    public static @EpochMillis long plus(final @EpochMillis long instant, final @DurationMillis long duration)
    {
        return instant + duration;
    }

    /** The time from {@code from} to {@code to}: negative when {@code to} is earlier. */
    public static @DurationMillis long between(final @EpochMillis long from, final @EpochMillis long to)
    {
        return to - from;
    }
}
