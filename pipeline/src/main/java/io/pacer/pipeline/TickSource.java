package io.pacer.pipeline;

import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

/**
 * Publishes a {@link EventType#TICK} into the ring at a fixed interval, so that time reaches
 * the shards as an ordered event even when no traffic flows (reservations expire on time).
 */
public final class TickSource implements AutoCloseable
{
    private final PacerPipeline pipeline;
    private final long intervalMillis;
    private ScheduledExecutorService scheduler;

    TickSource(final PacerPipeline pipeline, final long intervalMillis)
    {
        this.pipeline = pipeline;
        this.intervalMillis = intervalMillis;
    }

    synchronized void start()
    {
        scheduler = Executors.newSingleThreadScheduledExecutor(r ->
        {
            final Thread thread = new Thread(r, "pacer-ticks");
            thread.setDaemon(true);
            return thread;
        });
        scheduler.scheduleAtFixedRate(pipeline::publishTick, intervalMillis, intervalMillis, TimeUnit.MILLISECONDS);
    }

    @Override
    public synchronized void close()
    {
        if (scheduler != null)
        {
            scheduler.shutdownNow();
            try
            {
                scheduler.awaitTermination(5, TimeUnit.SECONDS);
            }
            catch (final InterruptedException ex)
            {
                Thread.currentThread().interrupt();
            }
            scheduler = null;
        }
    }
}
