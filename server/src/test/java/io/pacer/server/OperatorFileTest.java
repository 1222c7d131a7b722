package io.pacer.server;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;

import static org.assertj.core.api.Assertions.assertThat;

/** Which operator file {@code serve} reads (operations.md: conf/application.conf is the operator's file). */
class OperatorFileTest
{
    @TempDir
    Path home;

    private final String homeBefore = System.getProperty("pacer.home");

    @AfterEach
    void restoreHome()
    {
        if (homeBefore == null)
        {
            System.clearProperty("pacer.home");
        }
        else
        {
            System.setProperty("pacer.home", homeBefore);
        }
    }

    @Test
    void shouldReadConfApplicationConfUnderTheHomeWhenNoFileIsNamed() throws Exception
    {
        final Path template = Files.createDirectories(home.resolve("conf")).resolve("application.conf");
        Files.writeString(template, "pacer.gateway.port = 9500\n");
        System.setProperty("pacer.home", home.toString());

        assertThat(ServeCommand.operatorFile(null)).isEqualTo(template);
    }

    @Test
    void shouldRunOnTheEmbeddedDefaultsWhenTheHomeHasNoOperatorFile()
    {
        System.setProperty("pacer.home", home.toString());

        assertThat(ServeCommand.operatorFile(null)).isNull();
    }

    @Test
    void shouldLeaveAFileNamedByConfigFileToTheConfigurationToRead() throws Exception
    {
        Files.createDirectories(home.resolve("conf")).resolve("application.conf").toFile().createNewFile();
        System.setProperty("pacer.home", home.toString());
        System.setProperty("config.file", home.resolve("other.conf").toString());
        try
        {
            assertThat(ServeCommand.operatorFile(null)).as("PacerConfig.load reads -Dconfig.file itself").isNull();
        }
        finally
        {
            System.clearProperty("config.file");
        }
    }

    @Test
    void shouldReadTheFileNamedByConfigInstead() throws Exception
    {
        Files.createDirectories(home.resolve("conf")).resolve("application.conf").toFile().createNewFile();
        System.setProperty("pacer.home", home.toString());
        final Path named = home.resolve("other.conf");

        assertThat(ServeCommand.operatorFile(named)).isEqualTo(named);
    }
}
