package io.pacer.server;

import io.pacer.loadtest.LoadTestCommand;
import picocli.CommandLine.Command;
import picocli.CommandLine;

import java.util.List;

/**
 * {@code bin/pacer}: one launcher, one subcommand per job. Exit codes: 0 success, 2 bad usage,
 * 1 any other failure.
 *
 * <p>A command line that names its subcommand first builds only that one. Building the command
 * line was half of the main thread's samples in an empty journal's replay, most of it picocli
 * reading every subcommand's annotations and registering its converters again for each
 * (bench/BENCHMARKS.md). Anything else (no arguments, top-level options, {@code help}, a misspelt
 * subcommand) builds them all, so that usage and errors read as before.
 */
@Command(
    name = "pacer",
    mixinStandardHelpOptions = true,
    versionProvider = PacerCli.Version.class,
    description = "Budget pacer for real-time bidding.")
public final class PacerCli implements Runnable
{
    /** The subcommands, in the order usage lists them; each is named by its own {@code @Command}. */
    private static final List<Class<?>> SUBCOMMANDS =
        List.of(ServeCommand.class, DemoCommand.class, LoadTestCommand.class, ReplayCommand.class);

    @CommandLine.Spec
    private CommandLine.Model.CommandSpec spec;

    public static void main(final String[] args)
    {
        System.exit(run(args));
    }

    /** Runs the CLI and returns its exit code (tests call this). */
    public static int run(final String... args)
    {
        return commandLine(args)
            .setExecutionExceptionHandler((ex, commandLine, parseResult) ->
            {
                commandLine.getErr().println("pacer: " + ex.getMessage());
                return CommandLine.ExitCode.SOFTWARE;
            })
            .execute(args);
    }

    /** The command line for {@code args}: with only the subcommand they name first, or with all. */
    static CommandLine commandLine(final String... args)
    {
        final CommandLine cli = new CommandLine(new PacerCli());
        for (final Class<?> subcommand : SUBCOMMANDS)
        {
            if (args.length > 0 && subcommand.getAnnotation(Command.class).name().equals(args[0]))
            {
                return cli.addSubcommand(subcommand);
            }
        }
        for (final Class<?> subcommand : SUBCOMMANDS)
        {
            cli.addSubcommand(subcommand);
        }
        return cli.addSubcommand(new CommandLine.HelpCommand());
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
