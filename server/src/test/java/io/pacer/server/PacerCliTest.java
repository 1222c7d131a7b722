package io.pacer.server;

import org.junit.jupiter.api.Test;
import picocli.CommandLine;

import java.io.PrintWriter;
import java.io.StringWriter;

import static org.assertj.core.api.Assertions.assertThat;

class PacerCliTest
{
    @Test
    void shouldBuildOnlyTheSubcommandNamedFirst()
    {
        assertThat(PacerCli.commandLine("replay", "--journal", "/tmp/j").getSubcommands()).containsOnlyKeys("replay");
        assertThat(PacerCli.commandLine("serve").getSubcommands()).containsOnlyKeys("serve");
    }

    @Test
    void shouldBuildEverySubcommandWhenNoneIsNamedFirst()
    {
        for (final String[] args : new String[][] {{}, {"--help"}, {"help", "replay"}, {"replai"}, {"--version"}})
        {
            assertThat(PacerCli.commandLine(args).getSubcommands())
                .containsOnlyKeys("serve", "demo", "loadtest", "replay", "help");
        }
    }

    @Test
    void shouldPrintASubcommandsUsageAsTheWholeTreeDoes()
    {
        assertThat(usage(PacerCli.commandLine("replay").getSubcommands().get("replay")))
            .startsWith("Usage: pacer replay ")
            .isEqualTo(usage(PacerCli.commandLine().getSubcommands().get("replay")));
    }

    @Test
    void shouldSuggestTheSubcommandWhenAMisspeltOneIsRefused()
    {
        final StringWriter err = new StringWriter();
        final CommandLine cli = PacerCli.commandLine("replai");
        cli.setErr(new PrintWriter(err));
        assertThat(cli.execute("replai")).isEqualTo(CommandLine.ExitCode.USAGE);
        assertThat(err.toString()).contains("Unmatched argument at index 0: 'replai'").contains("Did you mean: pacer replay?");
    }

    private static String usage(final CommandLine commandLine)
    {
        final StringWriter out = new StringWriter();
        commandLine.usage(new PrintWriter(out));
        return out.toString();
    }
}
