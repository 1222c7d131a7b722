package io.pacer.server;

import io.pacer.pipeline.PipelineConfig;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/** The packaged server as a separate process, for tests that signal or kill it. */
final class PacerProcess
{
    private static final Path JAR = Path.of("target/pacer.jar").toAbsolutePath();

    private PacerProcess()
    {
    }

    /** A loopback port free now. */
    static int freePort() throws Exception
    {
        try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress()))
        {
            return socket.getLocalPort();
        }
    }

    /**
     * Starts {@code pacer serve} in {@code home} (campaigns from {@code home/campaigns.json},
     * journal in {@code home/data/journal}, log in {@code home/server-*.log}) and waits for
     * its "pacer ready" line.
     */
    static Process start(final Path home, final int gateway, final int admin) throws Exception
    {
        final Process process = new ProcessBuilder("java", "--add-opens", "java.base/jdk.internal.misc=ALL-UNNAMED",
            "-Dpacer.home=" + home, "-Dpacer.gateway.port=" + gateway, "-Dpacer.admin.port=" + admin,
            "-Dpacer.campaigns.file=campaigns.json",
            "-Dpacer.pipeline.threading=" + PipelineConfig.TEST_THREADING.name().toLowerCase(java.util.Locale.ROOT),
            "-jar", JAR.toString(), "serve")
            .redirectError(home.resolve("server-" + System.nanoTime() + ".log").toFile()).start();
        final BufferedReader out = new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8));
        final String ready = CompletableFuture.supplyAsync(() ->
        {
            try
            {
                return out.readLine();
            }
            catch (final java.io.IOException ex)
            {
                return null;
            }
        }).get(60, TimeUnit.SECONDS);
        assertThat(ready).startsWith("pacer ready");
        return process;
    }
}
