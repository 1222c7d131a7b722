package io.pacer.server;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.LoggerContext;
import ch.qos.logback.classic.encoder.PatternLayoutEncoder;
import ch.qos.logback.classic.spi.Configurator;
import ch.qos.logback.core.ConsoleAppender;
import org.junit.jupiter.api.Test;
import org.slf4j.LoggerFactory;

import static org.assertj.core.api.Assertions.assertThat;

/** The embedded logging default is what logback finds, and what it sets up. */
class LoggingDefaultsTest
{
    @Test
    void shouldLogInfoToStandardErrorWithNettyAtWarnWhenNoFileIsGiven()
    {
        final LoggerContext context = (LoggerContext)LoggerFactory.getILoggerFactory();
        final Logger root = context.getLogger(Logger.ROOT_LOGGER_NAME);
        assertThat(root.getLevel()).isEqualTo(Level.INFO);
        assertThat(context.getLogger("io.netty").getLevel()).isEqualTo(Level.WARN);
        final ConsoleAppender<?> stderr = (ConsoleAppender<?>)root.getAppender("STDERR");
        assertThat(stderr.getTarget()).isEqualTo("System.err");
        assertThat(((PatternLayoutEncoder)stderr.getEncoder()).getPattern()).isEqualTo(LoggingDefaults.PATTERN);
    }

    @Test
    void shouldLeaveAGivenConfigurationFileToLogback()
    {
        final String before = System.getProperty("logback.configurationFile");
        System.setProperty("logback.configurationFile", "conf/logback.xml");
        try
        {
            final LoggerContext context = new LoggerContext();
            final LoggingDefaults defaults = new LoggingDefaults();
            defaults.setContext(context);
            assertThat(defaults.configure(context)).isEqualTo(Configurator.ExecutionStatus.INVOKE_NEXT_IF_ANY);
            assertThat(context.getLogger(Logger.ROOT_LOGGER_NAME).getAppender("STDERR")).isNull();
        }
        finally
        {
            if (before == null)
            {
                System.clearProperty("logback.configurationFile");
            }
            else
            {
                System.setProperty("logback.configurationFile", before);
            }
        }
    }
}
