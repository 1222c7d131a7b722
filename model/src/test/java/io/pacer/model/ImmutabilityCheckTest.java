package io.pacer.model;

import org.junit.jupiter.api.Test;

import javax.tools.Diagnostic;
import javax.tools.DiagnosticCollector;
import javax.tools.JavaCompiler;
import javax.tools.JavaFileObject;
import javax.tools.SimpleJavaFileObject;
import javax.tools.ToolProvider;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;

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

    /** The compiler's errors for this source, each as "[Check] message"; empty when it compiles. */
    private static List<String> compile(final String className, final String code) throws Exception
    {
        final JavaCompiler javac = ToolProvider.getSystemJavaCompiler();
        final DiagnosticCollector<JavaFileObject> diagnostics = new DiagnosticCollector<>();
        final JavaFileObject source = new SimpleJavaFileObject(
            URI.create("string:///planted/" + className + ".java"), JavaFileObject.Kind.SOURCE)
        {
            @Override
            public CharSequence getCharContent(final boolean ignoreEncodingErrors)
            {
                return code;
            }
        };
        final Path out = Files.createTempDirectory("planted");
        final String classpath = System.getProperty("java.class.path");
        final List<String> options = List.of("-XDcompilePolicy=simple", "--should-stop=ifError=FLOW", ERROR_PRONE,
            "-classpath", classpath, "-processorpath", classpath, "-d", out.toString());
        javac.getTask(null, null, diagnostics, options, null, List.of(source)).call();
        return diagnostics.getDiagnostics().stream()
            .filter(d -> d.getKind() == Diagnostic.Kind.ERROR)
            .map(d -> d.getMessage(Locale.ROOT))
            .toList();
    }
}
