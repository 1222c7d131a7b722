package io.pacer.pipeline;

import java.util.concurrent.ThreadFactory;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Consumer;

/**
 * Every thread the pacer starts comes from here, named by its role ({@code pacer-<role>-<n>}, or
 * {@code pacer-<role>} for a thread of which there is one at a time) and a daemon, so that a thread
 * dump reads as the architecture does
 * (see docs/architecture.md for which role runs what in each {@link ThreadingMode}).
 */
public final class PacerThreads
{
    private PacerThreads()
    {
    }

    /** A daemon thread named {@code name}, not started, that runs {@code task}. */
    public static Thread thread(final String name, final Runnable task)
    {
        final Thread thread = new Thread(task, name);
        thread.setDaemon(true);
        return thread;
    }

    /**
     * Waits for {@code thread} to end, interrupted or not: for an owner that must know a helper can
     * no longer touch what they shared. An interrupt that came meanwhile is set again on return.
     */
    public static void joinUninterruptibly(final Thread thread)
    {
        boolean interrupted = false;
        while (thread.isAlive())
        {
            try
            {
                thread.join();
            }
            catch (final InterruptedException ex)
            {
                interrupted = true;
            }
        }
        if (interrupted)
        {
            Thread.currentThread().interrupt();
        }
    }

    /** Daemon threads named {@code <role>-0}, {@code <role>-1}, ... */
    public static ThreadFactory factory(final String role)
    {
        return factory(role, thread -> {});
    }

    /** As {@link #factory(String)}, telling {@code created} about each thread before it starts. */
    public static ThreadFactory factory(final String role, final Consumer<Thread> created)
    {
        final AtomicInteger count = new AtomicInteger();
        return runnable ->
        {
            final Thread thread = thread(role + "-" + count.getAndIncrement(), runnable);
            created.accept(thread);
            return thread;
        };
    }
}
