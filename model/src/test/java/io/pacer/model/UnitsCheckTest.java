package io.pacer.model;

import org.junit.jupiter.api.Test;

import java.nio.file.Path;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The build's Units Checker, shown failing on planted unit mistakes against the real model API: each
 * source below is compiled in-process with the checker, units and stub file that {@code ./mvnw verify}
 * uses on {@code model} and {@code pipeline} (the root pom's {@code pacer.units} properties), and must be
 * refused for the reason named, or accepted when the units agree.
 */
class UnitsCheckTest
{
    private static final String UNITS = "io.pacer.units.CurrencyMicros,io.pacer.units.CurrencyNanos,io.pacer.units.CpmMicros," +
        "io.pacer.units.EpochMillis,io.pacer.units.DurationMillis";
    private static final String STUBS = Path.of("..", "units", "src", "main", "stubs", "Math.astub").toString();

    @Test
    void shouldRefuseReleasingABudgetInMicrosWhereNanosAreExpected() throws Exception
    {
        final List<String> errors = compile("Refund", """
            package planted;
            import io.pacer.model.CampaignBook;
            public final class Refund {
                static void refund(CampaignBook book) { book.release(book.definition().budgetMicros(), false); }
            }
            """);
        assertThat(errors).anyMatch(e -> e.contains("[argument]") && e.contains("@CurrencyMicros") && e.contains("@CurrencyNanos"));
    }

    @Test
    void shouldRefuseAPricePerThousandImpressionsUsedAsABudget() throws Exception
    {
        final List<String> errors = compile("Cap", """
            package planted;
            import io.pacer.model.CampaignDefinition;
            import io.pacer.model.Money;
            import io.pacer.units.CurrencyNanos;
            public final class Cap {
                static @CurrencyNanos long cap(CampaignDefinition d) { return Money.microsToNanos(d.maxBidCpmMicros()); }
            }
            """);
        assertThat(errors).anyMatch(e -> e.contains("[argument]") && e.contains("@CpmMicros") && e.contains("@CurrencyMicros"));
    }

    @Test
    void shouldRefuseAddingADurationToAnInstantWithoutSayingSo() throws Exception
    {
        final List<String> errors = compile("Deadline", """
            package planted;
            import io.pacer.model.PacingPolicy;
            import io.pacer.units.EpochMillis;
            public final class Deadline {
                static @EpochMillis long deadline(@EpochMillis long now, PacingPolicy p) { return now + p.reservationTtlMillis(); }
            }
            """);
        assertThat(errors).anyMatch(e -> e.contains("[return]") && e.contains("@EpochMillis"));
    }

    @Test
    void shouldRefuseARawNumberWhereAQuantityIsExpected() throws Exception
    {
        final List<String> errors = compile("Raw", """
            package planted;
            import io.pacer.model.CampaignBook;
            public final class Raw {
                static void lose(CampaignBook book, long cost) { book.release(cost, false); }
            }
            """);
        assertThat(errors).anyMatch(e -> e.contains("[argument]") && e.contains("@UnknownUnits") && e.contains("@CurrencyNanos"));
    }

    @Test
    void shouldAcceptTheSameCodeWhenUnitsChangeThroughMoneyAndUnits() throws Exception
    {
        assertThat(compile("Fixed", """
            package planted;
            import io.pacer.model.CampaignBook;
            import io.pacer.model.Money;
            import io.pacer.model.PacingPolicy;
            import io.pacer.units.EpochMillis;
            import io.pacer.units.Units;
            public final class Fixed {
                static void refund(CampaignBook book) { book.release(Money.microsToNanos(book.definition().budgetMicros()), false); }
                static @EpochMillis long deadline(@EpochMillis long now, PacingPolicy p) { return Units.plus(now, p.reservationTtlMillis()); }
            }
            """)).isEmpty();
    }

    /** The compiler's errors for this source, each as "[check] message"; empty when it compiles. */
    private static List<String> compile(final String className, final String code) throws Exception
    {
        return PlantedSource.compileErrors(className, code, List.of("-processor", "org.checkerframework.checker.units.UnitsChecker", "-Aunits=" + UNITS,
            "-Astubs=" + STUBS));
    }
}
