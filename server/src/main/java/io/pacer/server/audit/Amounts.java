package io.pacer.server.audit;

import io.pacer.units.CurrencyNanos;

import java.math.BigDecimal;
import java.math.RoundingMode;

/** Money as the audit tools print it: exact decimals of the currency unit, never a float. */
final class Amounts
{
    private Amounts()
    {
    }

    /** {@code nanos} in currency units, exactly: 1500000 nanos is "0.0015". */
    static String decimal(final @CurrencyNanos long nanos)
    {
        return BigDecimal.valueOf(nanos, 9).stripTrailingZeros().toPlainString();
    }

    /**
     * {@code nanos} in currency units to six decimals, rounded half away from zero: 1085319787 nanos
     * is "1.085320". The audit's table prints a million of these: no {@code Formatter}, which made
     * its decimal symbols afresh for each.
     */
    static String micros(final @CurrencyNanos long nanos)
    {
        return fixed(rounded(nanos, 1_000), 6);
    }

    /** {@code value} with its thousands grouped by commas, as {@code String.format(Locale.ROOT, "%,d", value)} writes it. */
    static String grouped(final long value)
    {
        final String digits = Long.toString(value);
        final int sign = value < 0 ? 1 : 0;
        final int length = digits.length() - sign;
        final StringBuilder text = new StringBuilder(digits.length() + length / 3);
        text.append(digits, 0, sign);
        for (int i = 0; i < length; i++)
        {
            if (i > 0 && (length - i) % 3 == 0)
            {
                text.append(',');
            }
            text.append(digits.charAt(sign + i));
        }
        return text.toString();
    }

    /** {@code part} as a percentage of {@code whole} (positive), to two decimals, rounded half away from zero: 1 of 3 is "33.33". */
    static String percent(final long part, final long whole)
    {
        if (whole <= 0)
        {
            throw new IllegalArgumentException("a percentage of " + whole);
        }
        if (part >= -Long.MAX_VALUE / 10_000 && part <= Long.MAX_VALUE / 10_000)
        {
            return fixed(rounded(part * 10_000, whole), 2);
        }
        return BigDecimal.valueOf(part).multiply(BigDecimal.valueOf(100))
            .divide(BigDecimal.valueOf(whole), 2, RoundingMode.HALF_UP).toPlainString();
    }

    /**
     * {@code value} to one decimal, as {@code String.format(Locale.ROOT, "%.1f", value)} writes it:
     * the digits of {@link Double#toString} rounded half up, which is what {@code Formatter} rounds
     * too. The what-if's table prints two of these a row, and a {@code Formatter} a cell was half its
     * printing at a million campaigns.
     */
    static String tenths(final double value)
    {
        if (!Double.isFinite(value))
        {
            return Double.toString(value);
        }
        final String rounded = new BigDecimal(Double.toString(value)).setScale(1, RoundingMode.HALF_UP).toPlainString();
        // Formatter keeps the sign of a negative value that rounds to zero (and of -0.0); BigDecimal has no negative zero
        return 1 / value < 0 && rounded.charAt(0) != '-' ? "-" + rounded : rounded;
    }

    /** {@code numerator / denominator} (positive) rounded half away from zero. */
    private static long rounded(final long numerator, final long denominator)
    {
        final long quotient = numerator / denominator;
        final long remainder = Math.abs(numerator % denominator);
        return remainder >= denominator - remainder ? quotient + Long.signum(numerator) : quotient;
    }

    /** {@code value / 10^decimals} written with exactly {@code decimals} decimals. */
    private static String fixed(final long value, final int decimals)
    {
        long scale = 1;
        for (int i = 0; i < decimals; i++)
        {
            scale *= 10;
        }
        final String fraction = Long.toString(Math.abs(value % scale));
        final StringBuilder text = new StringBuilder(24);
        if (value < 0)
        {
            text.append('-');
        }
        text.append(Math.abs(value / scale)).append('.');
        for (int i = fraction.length(); i < decimals; i++)
        {
            text.append('0');
        }
        return text.append(fraction).toString();
    }
}
