package io.pacer.server;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.LoggerContext;
import ch.qos.logback.classic.encoder.PatternLayoutEncoder;
import ch.qos.logback.classic.spi.Configurator;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.ConsoleAppender;
import ch.qos.logback.core.spi.ContextAwareBase;

/**
 * The embedded logging default, INFO to stderr ({@code io.netty} at WARN), set up in code and
 * found by logback as a service: reading the same as an XML file (Joran) took a quarter of a
 * second of every server start and every {@code pacer replay}. Given
 * {@code -Dlogback.configurationFile} (operators: {@code conf/logback.xml}), logback reads that
 * file as usual.
 */
public final class LoggingDefaults extends ContextAwareBase implements Configurator
{
    static final String PATTERN = "%d{yyyy-MM-dd'T'HH:mm:ss.SSSX,UTC} %-5level [%thread] %logger{36} - %msg%n";

    @Override
    public ExecutionStatus configure(final LoggerContext context)
    {
        if (System.getProperty("logback.configurationFile") != null)
        {
            return ExecutionStatus.INVOKE_NEXT_IF_ANY;
        }
        final PatternLayoutEncoder encoder = new PatternLayoutEncoder();
        encoder.setContext(context);
        encoder.setPattern(PATTERN);
        encoder.start();
        final ConsoleAppender<ILoggingEvent> stderr = new ConsoleAppender<>();
        stderr.setContext(context);
        stderr.setName("STDERR");
        stderr.setTarget("System.err");
        stderr.setEncoder(encoder);
        stderr.start();
        final Logger root = context.getLogger(Logger.ROOT_LOGGER_NAME);
        root.setLevel(Level.INFO);
        root.addAppender(stderr);
        context.getLogger("io.netty").setLevel(Level.WARN);
        return ExecutionStatus.DO_NOT_INVOKE_NEXT_IF_ANY;
    }
}
