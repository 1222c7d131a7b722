package io.pacer.pipeline;

import io.pacer.units.DurationMillis;

import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.TimeUnit;

/**
 * A {@link DrainLoop} on a thread of its own ({@code pacer-pipeline}), for a shared-mode
 * pipeline that no event loop hosts: tests, benchmarks, tools. Closed with the pipeline.
 */
public final class OwnThreadDrainLoop implements DrainLoop, AutoCloseable
{
    private final ScheduledExecutorService executor;
    private volatile Thread thread;

    public OwnThreadDrainLoop()
    {
        this.executor = new ScheduledThreadPoolExecutor(1, PacerThreads.factory("pacer-pipeline", t -> thread = t));
    }

    @Override
    public boolean inLoop()
    {
        return Thread.currentThread() == thread;
    }

    @Override
    public void execute(final Runnable task)
    {
        executor.execute(task);
    }

    @Override
    public AutoCloseable scheduleAtFixedRate(final Runnable task, final @DurationMillis long periodMillis)
    {
        final var future = executor.scheduleAtFixedRate(task, periodMillis, periodMillis, TimeUnit.MILLISECONDS);
        return () -> future.cancel(false);
    }

    @Override
    public void close()
    {
        executor.shutdown();
        try
        {
            executor.awaitTermination(5, TimeUnit.SECONDS);
        }
        catch (final InterruptedException ex)
        {
            Thread.currentThread().interrupt();
        }
    }
}
