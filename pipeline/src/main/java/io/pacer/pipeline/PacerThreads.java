package io.pacer.pipeline;

import java.util.concurrent.ThreadFactory;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Consumer;

/**
 * Every thread the pacer starts comes from here, named by its role ({@code pacer-<role>-<n>})
 * and a daemon, so that a thread dump reads as the architecture does
 * (see docs/architecture.md for which role runs what in each {@link ThreadingMode}).
 */
public final class PacerThreads
{
    private PacerThreads()
    {
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
            final Thread thread = new Thread(runnable, role + "-" + count.getAndIncrement());
            thread.setDaemon(true);
            created.accept(thread);
            return thread;
        };
    }
}
