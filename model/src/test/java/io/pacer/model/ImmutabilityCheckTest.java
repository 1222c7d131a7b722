package io.pacer.model;

import org.junit.jupiter.api.Test;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The build's Error Prone checks, shown failing on planted violations: each source below is
 * compiled in-process with the same plug-in and options as {@code ./mvnw verify} uses (the root
 * pom), and must be refused for the reason named.
 */
class ImmutabilityCheckTest
{
    private static final String ERROR_PRONE = "-Xplugin:ErrorProne -Xep:Immutable:ERROR -Xep:IntLongMath:ERROR";

    @Test
    void shouldRefuseAnImmutableDefinitionThatHoldsAMutableArray() throws Exception
    {
        final List<String> errors = compile("Caps", """
            package planted;
            @com.google.errorprone.annotations.Immutable
            public record Caps(long budgetMicros, long[] dailyCapsMicros) {}
            """);
        assertThat(errors).anyMatch(e -> e.contains("[Immutable]") && e.contains("dailyCapsMicros"));
    }

    @Test
    void shouldRefuseAnImmutableClassWithAFieldThatCanBeReassigned() throws Exception
    {
        final List<String> errors = compile("Budget", """
            package planted;
            @com.google.errorprone.annotations.Immutable
            public final class Budget {
                private long spentNanos;
                public void book(long nanos) { spentNanos += nanos; }
            }
            """);
        assertThat(errors).anyMatch(e -> e.contains("[Immutable]") && e.contains("spentNanos"));
    }

    @Test
    void shouldRefuseIntArithmeticThatOverflowsBeforeItBecomesMoney() throws Exception
    {
        final List<String> errors = compile("Cost", """
            package planted;
            public final class Cost {
                public static long nanos(int impressions, int cpmMicros) { return impressions * cpmMicros; }
            }
            """);
        assertThat(errors).anyMatch(e -> e.contains("[IntLongMath]"));
    }

    @Test
    void shouldAcceptTheSameDefinitionWhenEveryFieldIsImmutable() throws Exception
    {
        assertThat(compile("Caps", """
            package planted;
            @com.google.errorprone.annotations.Immutable
            public record Caps(long budgetMicros, long dailyCapMicros) {}
            """)).isEmpty();
    }

    /** The compiler's errors for this source, each as "[check] message"; empty when it compiles. */
    private static List<String> compile(final String className, final String code) throws Exception
    {
        return PlantedSource.compileErrors(className, code, List.of("-XDcompilePolicy=simple", "--should-stop=ifError=FLOW", ERROR_PRONE));
    }
}
