package io.pacer.server.audit;

import org.junit.jupiter.api.Test;

import java.math.BigDecimal;
import java.math.RoundingMode;
import java.util.Locale;
import java.util.SplittableRandom;

import static org.assertj.core.api.Assertions.assertThat;

class AmountsTest
{
    @Test
    void shouldPrintNanosAsUnitsToSixDecimalsRoundedHalfAwayFromZero()
    {
        assertThat(Amounts.micros(1_085_319_787)).isEqualTo("1.085320");
        assertThat(Amounts.micros(1_000_000_000_000_000_000L)).isEqualTo("1000000000.000000");
        assertThat(Amounts.micros(0)).isEqualTo("0.000000");
        assertThat(Amounts.micros(499)).isEqualTo("0.000000");
        assertThat(Amounts.micros(500)).isEqualTo("0.000001");
        assertThat(Amounts.micros(-1_500)).isEqualTo("-0.000002");
        assertThat(Amounts.micros(Long.MAX_VALUE)).isEqualTo("9223372036.854776");
    }

    @Test
    void shouldPrintExactlyWhatExactDecimalRoundingGivesForAnyAmount()
    {
        final SplittableRandom random = new SplittableRandom(6);
        for (int i = 0; i < 10_000; i++)
        {
            final long nanos = i % 2 == 0 ? random.nextLong(10_000_000_000L) : random.nextLong();
            assertThat(Amounts.micros(nanos)).as("%d nanos", nanos)
                .isEqualTo(BigDecimal.valueOf(nanos, 9).setScale(6, RoundingMode.HALF_UP).toPlainString());
        }
    }

    @Test
    void shouldPrintADoubleToOneDecimalExactlyAsFormatterDoes()
    {
        for (final double value : new double[] {0, -0.0, 0.05, 0.15, 0.25, 0.35, 2.675, 99.95, 100, -0.04, -0.05, -1.25,
            1e7, 1.05e15, 123456789.25, Double.MIN_VALUE, Double.MAX_VALUE, Double.NaN, Double.POSITIVE_INFINITY,
            Double.NEGATIVE_INFINITY})
        {
            assertThat(Amounts.tenths(value)).as("%s", value).isEqualTo(String.format(Locale.ROOT, "%.1f", value));
        }
        final SplittableRandom random = new SplittableRandom(10);
        for (int i = 0; i < 40_000; i++)
        {
            // shares as the what-if computes them (spent over budget, times 100), tenths and halves, and any magnitude
            final double value = switch (i % 4)
            {
                case 0 -> 100.0 * random.nextLong(1, 1_000_000_000L) / random.nextLong(1, 1_000_000_000L);
                case 1 -> random.nextInt(-20_000, 20_000) / 20.0;
                case 2 -> random.nextDouble(-1000, 1000);
                default -> Double.longBitsToDouble(random.nextLong() & 0x7FEF_FFFF_FFFF_FFFFL);
            };
            assertThat(Amounts.tenths(value)).as("%s", value).isEqualTo(String.format(Locale.ROOT, "%.1f", value));
        }
    }

    @Test
    void shouldPrintAShareAsAPercentageToTwoDecimalsEvenPastWhatALongHoldsTimesTenThousand()
    {
        assertThat(Amounts.percent(1, 3)).isEqualTo("33.33");
        assertThat(Amounts.percent(2, 3)).isEqualTo("66.67");
        assertThat(Amounts.percent(0, 7)).isEqualTo("0.00");
        assertThat(Amounts.percent(1, 200_000)).isEqualTo("0.00");
        assertThat(Amounts.percent(1, 20_000)).isEqualTo("0.01");
        assertThat(Amounts.percent(3, 2)).isEqualTo("150.00");
        assertThat(Amounts.percent(1_000_000_000_000_000_000L, 4_000_000_000_000_000_000L)).isEqualTo("25.00");
        assertThat(Amounts.percent(Long.MIN_VALUE, Long.MAX_VALUE)).isEqualTo("-100.00");
        assertThat(Amounts.percent(-1, 3)).isEqualTo("-33.33");
    }

    @Test
    void shouldGroupThousandsExactlyAsTheFormatterDoes()
    {
        final SplittableRandom random = new SplittableRandom(14);
        for (final long value : new long[] {0, 1, -1, 999, 1_000, -1_000, 999_999, 1_000_000, 10_001_155,
            Long.MAX_VALUE, Long.MIN_VALUE})
        {
            assertThat(Amounts.grouped(value)).isEqualTo(String.format(Locale.ROOT, "%,d", value));
        }
        for (int i = 0; i < 10_000; i++)
        {
            final long value = random.nextLong() >> random.nextInt(64);
            assertThat(Amounts.grouped(value)).as("%d", value).isEqualTo(String.format(Locale.ROOT, "%,d", value));
        }
    }
}
