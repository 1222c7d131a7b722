package io.pacer.server.audit;

import io.pacer.units.CurrencyNanos;

import java.math.BigDecimal;

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
}
