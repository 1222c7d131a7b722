package io.pacer.model;

import javax.tools.Diagnostic;
import javax.tools.DiagnosticCollector;
import javax.tools.JavaCompiler;
import javax.tools.JavaFileObject;
import javax.tools.SimpleJavaFileObject;
import javax.tools.ToolProvider;
import java.io.IOException;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/** Compiles a planted source in-process, with this test's classpath, for the static-check tests. */
final class PlantedSource
{
    private PlantedSource()
    {
    }

    /**
     * The compiler's errors for {@code code} (class {@code planted.<className>}), each as
     * "[check] message"; empty when it compiles.
     *
     * @param options the checker's options (plug-in, processor), before the classpath and output
     */
    static List<String> compileErrors(final String className, final String code, final List<String> options)
        throws IOException
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
        final List<String> all = new ArrayList<>(options);
        all.addAll(List.of("-classpath", classpath, "-processorpath", classpath, "-d", out.toString()));
        javac.getTask(null, null, diagnostics, all, null, List.of(source)).call();
        return diagnostics.getDiagnostics().stream()
            .filter(d -> d.getKind() == Diagnostic.Kind.ERROR)
            .map(d -> d.getMessage(Locale.ROOT))
            .toList();
    }
}
