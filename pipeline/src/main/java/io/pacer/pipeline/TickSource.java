package io.pacer.pipeline;

import io.pacer.units.DurationMillis;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

/**
 * Publishes a {@link EventType#TICK} into the ring at a fixed interval, so that time reaches
 * the shards as an ordered event even when no traffic flows (reservations expire on time). On
 * a shared pipeline the drain loop publishes its own ticks; otherwise a {@code pacer-ticks}
 * thread does.
 */
final class TickSource implements AutoCloseable
{
    private static final Logger LOG = LoggerFactory.getLogger(TickSource.class);

    private final PacerPipeline pipeline;
    private final @DurationMillis long intervalMillis;
    private final DrainLoop drainLoop;
    private AutoCloseable schedule;

    /** @param drainLoop the shared pipeline's loop, or null for a thread of its own */
    TickSource(final PacerPipeline pipeline, final @DurationMillis long intervalMillis, final DrainLoop drainLoop)
    {
        this.pipeline = pipeline;
        this.intervalMillis = intervalMillis;
        this.drainLoop = drainLoop;
    }

    synchronized void start()
    {
        if (drainLoop != null)
        {
            schedule = drainLoop.scheduleAtFixedRate(this::tick, intervalMillis);
            return;
        }
        final ScheduledExecutorService scheduler = Executors.newSingleThreadScheduledExecutor(PacerThreads.factory("pacer-ticks"));
        scheduler.scheduleAtFixedRate(this::tick, intervalMillis, intervalMillis, TimeUnit.MILLISECONDS);
        schedule = () ->
        {
            scheduler.shutdownNow();
            scheduler.awaitTermination(5, TimeUnit.SECONDS);
        };
    }

    /** A failed tick is logged, never allowed to cancel the schedule: time must keep flowing. */
    private void tick()
    {
        try
        {
            pipeline.publishTick();
        }
        catch (final RuntimeException ex)
        {
            LOG.error("tick not published", ex);
        }
    }

    @Override
    public synchronized void close()
    {
        if (schedule != null)
        {
            try
            {
                schedule.close();
            }
            catch (final InterruptedException ex)
            {
                Thread.currentThread().interrupt();
            }
            catch (final Exception ex)
            {
                throw new IllegalStateException("tick source did not stop", ex);
            }
            schedule = null;
        }
    }
}
