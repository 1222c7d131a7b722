package io.pacer.model;

import io.pacer.units.CpmMicros;
import io.pacer.units.CurrencyMicros;
import io.pacer.units.CurrencyNanos;
import io.pacer.units.Units;
import org.checkerframework.checker.units.qual.PolyUnit;

import java.math.BigInteger;

/**
 * The one place where money changes unit. All money is integer; nothing here rounds silently.
 *
 * <ul>
 *   <li>{@code ...Micros}: millionths of the campaign's currency unit (budgets, reports).</li>
 *   <li>{@code ...CpmMicros}: micros per thousand impressions (prices on the wire).</li>
 *   <li>{@code ...Nanos}: billionths of the unit, the exact unit of accounting. One impression
 *       bought at {@code x} CPM micros costs {@code x / 1000} micros, which is exactly {@code x}
 *       nanos, so per-impression costs never lose a fraction.</li>
 * </ul>
 *
 * <p>The Units Checker holds every other class to these units (docs/guarantees.md): the conversions
 * below are the only code allowed to turn one money unit into another, and say so with
 * {@code @SuppressWarnings("units")}.
 */
public final class Money
{
    /** Nanos in one micro. */
    public static final long NANOS_PER_MICRO = 1_000L;

    /** Largest amount of micros a budget may hold, so that its nanos fit a {@code long}. */
    public static final long MAX_MICROS = Long.MAX_VALUE / NANOS_PER_MICRO;

    private Money()
    {
    }

    /** Cost of one impression bought at {@code cpmMicros}: exactly {@code cpmMicros} nanos. */
    @SuppressWarnings("units")
    public static @CurrencyNanos long impressionCostNanos(final @CpmMicros long cpmMicros)
    {
        return cpmMicros;
    }

    /** Converts micros to nanos; {@code micros} must be in {@code [0, MAX_MICROS]}. */
    @SuppressWarnings("units")
    public static @CurrencyNanos long microsToNanos(final @CurrencyMicros long micros)
    {
        return Math.multiplyExact(micros, NANOS_PER_MICRO);
    }

    /** Whole micros in {@code nanos}, rounded toward negative infinity. */
    @SuppressWarnings("units")
    public static @CurrencyMicros long nanosToMicrosFloor(final @CurrencyNanos long nanos)
    {
        return Math.floorDiv(nanos, NANOS_PER_MICRO);
    }

    /** {@code a + b}, held at {@link Long#MAX_VALUE} / {@link Long#MIN_VALUE} instead of wrapping. */
    @SuppressWarnings("units") // the bounds it saturates at are in the operands' unit
    public static @PolyUnit long saturatingAdd(final @PolyUnit long a, final @PolyUnit long b)
    {
        final long sum = a + b;
        if (((a ^ sum) & (b ^ sum)) < 0)
        {
            return a < 0 ? Long.MIN_VALUE : Long.MAX_VALUE;
        }
        return sum;
    }

    /**
     * {@code amount * numerator / denominator}, rounded down, exact for any non-negative
     * {@code amount} and {@code 0 <= numerator <= denominator}, {@code denominator > 0}.
     * Allocation-free unless the intermediate product needs more than 63 bits. The result has
     * {@code amount}'s unit: numerator and denominator are a ratio (of durations, say).
     */
    @SuppressWarnings("units") // the BigInteger path leaves the checked world and comes back in amount's unit
    public static @PolyUnit long scale(final @PolyUnit long amount, final long numerator, final long denominator)
    {
        final long whole = amount / denominator;
        final long rest = amount % denominator;
        final long high = Math.multiplyHigh(rest, numerator);
        final long low = rest * numerator;
        if (high == 0 && low >= 0)
        {
            return whole * numerator + low / denominator;
        }
        return whole * numerator + BigInteger.valueOf(rest)
            .multiply(BigInteger.valueOf(numerator))
            .divide(BigInteger.valueOf(denominator))
            .longValueExact();
    }
}
