package io.pacer.model;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class MoneyTest
{
    @Test
    void shouldCostOneImpressionExactlyTheCpmMicrosInNanos()
    {
        // 2.5 CPM = 2,500,000 CPM micros; one impression = 2,500 micros = 2,500,000 nanos
        assertThat(Money.impressionCostNanos(2_500_000)).isEqualTo(2_500_000);
        assertThat(Money.nanosToMicrosFloor(Money.impressionCostNanos(2_500_000))).isEqualTo(2_500);
    }

    @Test
    void shouldKeepFractionsOfAMicroThatCpmPricesProduce()
    {
        // 1,001 CPM micros per impression is 1.001 micros: a thousand of them are exactly 1,001 micros
        long spentNanos = 0;
        for (int i = 0; i < 1000; i++)
        {
            spentNanos += Money.impressionCostNanos(1_001);
        }
        assertThat(spentNanos).isEqualTo(Money.microsToNanos(1_001));
    }

    @Test
    void shouldConvertMicrosToNanosAndRefuseOverflow()
    {
        assertThat(Money.microsToNanos(5_000_000_000L)).isEqualTo(5_000_000_000_000L);
        assertThat(Money.microsToNanos(Money.MAX_MICROS)).isEqualTo(Money.MAX_MICROS * 1000);
        assertThatThrownBy(() -> Money.microsToNanos(Money.MAX_MICROS + 1)).isInstanceOf(ArithmeticException.class);
    }

    @Test
    void shouldRoundNanosDownToWholeMicros()
    {
        assertThat(Money.nanosToMicrosFloor(1_999)).isEqualTo(1);
        assertThat(Money.nanosToMicrosFloor(-1)).isEqualTo(-1);
    }

    @Test
    void shouldSaturateInsteadOfWrapping()
    {
        assertThat(Money.saturatingAdd(Long.MAX_VALUE - 1, 5)).isEqualTo(Long.MAX_VALUE);
        assertThat(Money.saturatingAdd(Long.MIN_VALUE + 1, -5)).isEqualTo(Long.MIN_VALUE);
        assertThat(Money.saturatingAdd(40, 2)).isEqualTo(42);
    }

    @Test
    void shouldScaleExactlyEvenWhenTheProductNeedsMoreThan64Bits()
    {
        assertThat(Money.scale(1_000, 1, 3)).isEqualTo(333);
        assertThat(Money.scale(Long.MAX_VALUE, 1, 1)).isEqualTo(Long.MAX_VALUE);
        final long amount = 9_000_000_000_000_000_000L;
        final long numerator = 3_000_000_000_000L;
        final long denominator = 3_000_000_000_001L;
        final long expected = java.math.BigInteger.valueOf(amount).multiply(java.math.BigInteger.valueOf(numerator))
            .divide(java.math.BigInteger.valueOf(denominator)).longValueExact();
        assertThat(Money.scale(amount, numerator, denominator)).isEqualTo(expected);
    }
}
