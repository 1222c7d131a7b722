package io.pacer.server;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.HexFormat;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@code bin/pacer serve}, as a newcomer runs it: on the embedded defaults (ports 9400 and
 * 9401, conf/campaigns.json), answering protocol.md's worked example, stopping on SIGTERM.
 */
class ServeLauncherIT
{
    private static final Path REPO = Path.of("..").toAbsolutePath().normalize();

    private static ProcessBuilder launcher(final String... args)
    {
        final String[] command = new String[args.length + 1];
        command[0] = REPO.resolve("bin/pacer").toString();
        System.arraycopy(args, 0, command, 1, args.length);
        final ProcessBuilder builder = new ProcessBuilder(command).directory(REPO.toFile());
        builder.environment().put("PACER_NO_BUILD", "1");
        builder.environment().remove("PACER_HOME");
        // the host's own JVM options must not choose a collector for these tests
        builder.environment().remove("JAVA_TOOL_OPTIONS");
        builder.environment().remove("JDK_JAVA_OPTIONS");
        return builder;
    }

    @Test
    void shouldServeTheWorkedExampleOnTheEmbeddedDefaultsAndStopOnSigterm(@TempDir final Path journal) throws Exception
    {
        // the journal alone goes elsewhere: in the checkout's data/journal, the test's BID would
        // still hold a reservation when a newcomer next runs the quick start there
        final ProcessBuilder serve = launcher("serve").redirectError(ProcessBuilder.Redirect.INHERIT);
        serve.environment().put("PACER_JOURNAL_DIR", journal.toString());
        final Process server = serve.start();
        try
        {
            final BufferedReader out = new BufferedReader(new InputStreamReader(server.getInputStream(), StandardCharsets.UTF_8));
            final String ready = CompletableFuture.supplyAsync(() ->
            {
                try
                {
                    return out.readLine();
                }
                catch (final java.io.IOException ex)
                {
                    throw new IllegalStateException(ex);
                }
            }).get(60, TimeUnit.SECONDS);
            assertThat(ready).startsWith("pacer ready: gateway 127.0.0.1:9400");

            try (Socket socket = new Socket("127.0.0.1", 9400))
            {
                socket.setSoTimeout(10_000);
                final OutputStream request = socket.getOutputStream();
                request.write(HexFormat.of().parseHex(
                    "00000026EB50180001000100000007000000000000002A00000000000000A025260000000000"));
                request.flush();
                final InputStream response = socket.getInputStream();
                final byte[] answer = response.readNBytes(30);
                assertThat(HexFormat.of().formatHex(answer)).isEqualTo(
                    "0000001eeb50100002000100000007000000000000000100000000000000");
            }
        }
        finally
        {
            server.destroy();
        }
        assertThat(server.waitFor(30, TimeUnit.SECONDS)).isTrue();
        assertThat(server.exitValue()).isZero();
        try (java.util.stream.Stream<Path> files = java.nio.file.Files.list(journal))
        {
            assertThat(files.map(f -> f.getFileName().toString())).anyMatch(name -> name.startsWith("journal-"));
        }
    }

    @Test
    void shouldRunTheDemoAndWriteItsChart() throws Exception
    {
        final Path chart = Path.of("target/demo-chart.html").toAbsolutePath();
        java.nio.file.Files.deleteIfExists(chart);
        final Process demo = launcher("demo", "--flight", "3s", "--rate", "5000", "--out", chart.toString())
            .redirectError(ProcessBuilder.Redirect.DISCARD).start();
        final String report = new String(demo.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(demo.waitFor(120, TimeUnit.SECONDS)).isTrue();
        assertThat(demo.exitValue()).as(report).isZero();
        assertThat(report).contains("throughput", "p99", "errors      none", "delivery", "EVEN daily cap", "chart: " + chart);
        final String html = java.nio.file.Files.readString(chart);
        assertThat(html).startsWith("<!DOCTYPE html>").contains("<svg", "class=\"spent\"", "class=\"plan\"").endsWith("</html>\n");
    }

    /** The build's class data sharing archive maps with the jar it was made for (-Xshare:on fails otherwise). */
    @Test
    void shouldBuildAClassDataSharingArchiveThatTheJarStartsWith() throws Exception
    {
        final Path target = REPO.resolve("server/target");
        final Process version = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
            "-Xshare:on", "-XX:SharedArchiveFile=" + target.resolve("pacer.jsa"), "-Xlog:class+load=info",
            "-jar", target.resolve("pacer.jar").toString(), "--version").redirectErrorStream(true).start();
        final String output = new String(version.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(version.waitFor(60, TimeUnit.SECONDS)).isTrue();
        assertThat(version.exitValue()).as(output).isZero();
        // the application's own classes come from the archive, not from the jar
        assertThat(output).contains("io.pacer.server.PacerCli source: shared objects file");
    }

    /** A replay is a batch job: the throughput collector, unless JAVA_OPTS names one; the server keeps the JVM's choice. */
    @Test
    void shouldReplayOnTheThroughputCollectorUnlessJavaOptsNamesOne() throws Exception
    {
        assertThat(collectorLog(null, "replay", "--help")).contains("Using Parallel");
        assertThat(collectorLog("-XX:+UseSerialGC", "replay", "--help")).contains("Using Serial");
        assertThat(collectorLog("-XX:+UseNUMA -XX:ParallelGCThreads=1", "replay", "--help")).contains("Using Parallel");
        // a flag of the throughput collector's own, not a collector
        assertThat(collectorLog("-XX:+UseMaximumCompactionOnSystemGC", "replay", "--help")).contains("Using Parallel");
        assertThat(collectorLog(null, "serve", "--help")).contains("Using ").doesNotContain("Using Parallel");
    }

    private static String collectorLog(final String javaOpts, final String... args) throws Exception
    {
        final ProcessBuilder builder = launcher(args).redirectErrorStream(true);
        builder.environment().put("JAVA_OPTS", (javaOpts == null ? "" : javaOpts + " ") + "-Xlog:gc:stdout");
        final Process process = builder.start();
        final String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(process.waitFor(60, TimeUnit.SECONDS)).isTrue();
        assertThat(process.exitValue()).as(output).isZero();
        return output;
    }

    @Test
    void shouldExitTwoOnBadUsageAndZeroOnHelp() throws Exception
    {
        final Process bad = launcher("no-such-command").redirectErrorStream(true).start();
        bad.getInputStream().readAllBytes();
        assertThat(bad.waitFor(60, TimeUnit.SECONDS)).isTrue();
        assertThat(bad.exitValue()).isEqualTo(2);

        final Process help = launcher("serve", "--help").redirectErrorStream(true).start();
        final String text = new String(help.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(help.waitFor(60, TimeUnit.SECONDS)).isTrue();
        assertThat(help.exitValue()).isZero();
        assertThat(text).contains("--config");
    }
}
