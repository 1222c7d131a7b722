package io.pacer.pipeline;

import io.pacer.units.DurationMillis;

/**
 * The thread that runs the ring's consumers in {@link ThreadingMode#SHARED}: in the server, a
 * gateway event loop; in tests and benchmarks, {@link OwnThreadDrainLoop}. The pipeline asks it
 * to run a drain when something was published, and to run its ticks.
 */
public interface DrainLoop
{
    /** Whether the caller is the loop's thread. */
    boolean inLoop();

    /** Any thread: runs {@code task} on the loop soon, waking it if it sleeps. */
    void execute(Runnable task);

    /**
     * On the loop: runs {@code task} once the loop has handled the I/O of its current pass, so
     * that the reads of every connection in that pass are drained together.
     */
    default void executeAtEndOfPass(final Runnable task)
    {
        execute(task);
    }

    /** Runs {@code task} on the loop every {@code periodMillis}; closing the result stops it. */
    AutoCloseable scheduleAtFixedRate(Runnable task, @DurationMillis long periodMillis);
}
