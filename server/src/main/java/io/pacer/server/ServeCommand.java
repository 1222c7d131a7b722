package io.pacer.server;

import io.pacer.model.InvalidDefinitionException;
import io.pacer.pipeline.PacerThreads;
import io.pacer.server.config.InvalidConfigException;
import io.pacer.server.config.PacerConfig;
import org.slf4j.LoggerFactory;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import sun.misc.Signal;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * {@code pacer serve}: runs the server until SIGTERM or SIGINT. The first signal stops it
 * gracefully (stop reading, answer what was accepted, drain the ring) and exits 0; a second
 * signal, or {@code pacer.shutdown.timeout} passing, forces exit 1.
 */
@Command(
    name = "serve",
    mixinStandardHelpOptions = true,
    description = "Runs the pacer: gateway listener, admin listener, pipeline, campaigns-file watcher. "
        + "Without --config (or -Dconfig.file) it reads the operator's file, conf/application.conf under "
        + "pacer.home, if there is one, and otherwise runs on the embedded defaults (reference.conf); "
        + "PACER_... environment variables apply above the file, and -Dkey=value (with bin/pacer, in "
        + "JAVA_OPTS) above everything.",
    exitCodeListHeading = "%nExit codes:%n",
    exitCodeList = {"0:stopped by SIGTERM/SIGINT after a graceful drain", "1:failed to start or forced to stop",
        "2:bad usage or invalid configuration"})
final class ServeCommand implements Callable<Integer>
{
    /** The operator's file, relative to {@code pacer.home}. */
    static final String DEFAULT_FILE = "conf/application.conf";

    @Option(names = "--config", paramLabel = "FILE",
        description = "Operator configuration file (HOCON); default: conf/application.conf under pacer.home, if there is one.")
    private Path configFile;

    /**
     * The operator's file: {@code --config}'s, else none when {@code -Dconfig.file} names one (the
     * configuration reads it), else {@code conf/application.conf} under {@code pacer.home}
     * ({@code -Dpacer.home}, {@code PACER_HOME}, or the working directory) if it exists.
     */
    static Path operatorFile(final Path configFile)
    {
        if (configFile != null || System.getProperty("config.file") != null)
        {
            return configFile;
        }
        final Path template = PacerConfig.home(System.getenv()).resolve(DEFAULT_FILE);
        return Files.isRegularFile(template) ? template : null;
    }

    @Override
    public Integer call() throws Exception
    {
        final PacerConfig config;
        try
        {
            final Path file = operatorFile(configFile);
            config = PacerConfig.load(file);
            LoggerFactory.getLogger(ServeCommand.class).info("configuration: {}",
                file != null ? file.toAbsolutePath() : System.getProperty("config.file", "the embedded defaults"));
        }
        catch (final InvalidConfigException ex)
        {
            System.err.println("pacer: invalid configuration: " + ex.getMessage());
            return 2;
        }
        final CountDownLatch stopRequested = new CountDownLatch(1);
        final AtomicInteger signals = new AtomicInteger();
        final sun.misc.SignalHandler onSignal = signal ->
        {
            if (signals.incrementAndGet() > 1)
            {
                System.err.println("pacer: second SIG" + signal.getName() + ", exiting now");
                Runtime.getRuntime().halt(1);
            }
            stopRequested.countDown();
        };
        Signal.handle(new Signal("TERM"), onSignal);
        Signal.handle(new Signal("INT"), onSignal);

        final PacerServer server;
        try
        {
            server = new PacerServer(config);
        }
        catch (final InvalidConfigException ex)
        {
            // found only when read: a token file that does not parse
            System.err.println("pacer: invalid configuration: " + ex.getMessage());
            return 2;
        }
        try
        {
            server.start();
        }
        catch (final InvalidDefinitionException ex)
        {
            System.err.println("pacer: " + ex.getMessage());
            server.close();
            return 1;
        }
        catch (final InvalidConfigException ex)
        {
            // found only when starting: TLS files that make no usable context, a journal of another shape
            System.err.println("pacer: invalid configuration: " + ex.getMessage());
            server.close();
            return 2;
        }
        catch (final RuntimeException ex)
        {
            server.close();
            throw ex;
        }
        System.out.printf("pacer ready: gateway %s:%d, admin http://%s:%d/health%n",
            server.gatewayAddress().getHostString(), server.gatewayAddress().getPort(),
            server.adminAddress().getHostString(), server.adminAddress().getPort());
        System.out.flush();
        stopRequested.await();

        final Thread closer = PacerThreads.thread("pacer-shutdown", server::close);
        closer.start();
        closer.join(config.shutdownTimeout().toMillis());
        if (closer.isAlive())
        {
            System.err.println("pacer: shutdown took longer than " + config.shutdownTimeout() + ", exiting now");
            return 1;
        }
        return 0;
    }
}
