package io.pacer.pipeline;

import java.util.Arrays;
import java.util.List;
import java.util.Locale;

/**
 * Which threads run the ring's consumers ({@code pacer.pipeline.threading}), in the spirit of
 * Aeron's media driver {@code ThreadingMode}. {@link PacerPipeline}'s constructor is the one
 * switch over it.
 */
public enum ThreadingMode
{
    /**
     * Every consumer (each shard's {@link PacingHandler}, then the {@link Replier}'s journal and
     * answers) runs on one {@link DrainLoop}: in the server, the gateway event loop that reads.
     * A request read on that loop is decoded, decided, journaled and answered on it, with no
     * thread hop. Right for small hosts: one thread does all the pacer's work and nothing waits
     * for a core.
     */
    SHARED,

    /**
     * Each shard has its own thread and the replier another, woken by the ring's wait strategy.
     * For hosts with spare cores (yielding or busy-spin there).
     */
    DEDICATED;

    /** Accepted names, lower case. */
    public static final List<String> NAMES = Arrays.stream(values()).map(m -> m.name().toLowerCase(Locale.ROOT)).toList();

    /** @throws IllegalArgumentException naming the accepted values */
    public static ThreadingMode fromName(final String name)
    {
        for (final ThreadingMode mode : values())
        {
            if (mode.name().equalsIgnoreCase(name))
            {
                return mode;
            }
        }
        throw new IllegalArgumentException("must be one of " + NAMES + ", was \"" + name + "\"");
    }
}
