package io.pacer.server;

import io.pacer.loadtest.LoadTestCommand;
import picocli.CommandLine.Command;
import picocli.CommandLine;

/**
 * {@code bin/pacer}: one launcher, one subcommand per job. Exit codes: 0 success, 2 bad usage,
 * 1 any other failure.
 */
@Command(
    name = "pacer",
    mixinStandardHelpOptions = true,
    versionProvider = PacerCli.Version.class,
    description = "Budget pacer for real-time bidding.",
    subcommands = {ServeCommand.class, DemoCommand.class, LoadTestCommand.class, ReplayCommand.class,
        CommandLine.HelpCommand.class})
public final class PacerCli implements Runnable
{
    @CommandLine.Spec
    private CommandLine.Model.CommandSpec spec;

    public static void main(final String[] args)
    {
        System.exit(run(args));
    }

    /** Runs the CLI and returns its exit code (tests call this). */
    public static int run(final String... args)
    {
        return new CommandLine(new PacerCli())
            .setExecutionExceptionHandler((ex, commandLine, parseResult) ->
            {
                commandLine.getErr().println("pacer: " + ex.getMessage());
                return CommandLine.ExitCode.SOFTWARE;
            })
            .execute(args);
    }

    @Override
    public void run()
    {
        throw new CommandLine.ParameterException(spec.commandLine(), "a subcommand is required");
    }

    /** The version from the jar's manifest. */
    static final class Version implements CommandLine.IVersionProvider
    {
        @Override
        public String[] getVersion()
        {
            final String version = PacerCli.class.getPackage().getImplementationVersion();
            return new String[] {"pacer " + (version == null ? "(development build)" : version)};
        }
    }
}
