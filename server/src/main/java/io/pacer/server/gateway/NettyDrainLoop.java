package io.pacer.server.gateway;

import io.netty.channel.SingleThreadEventLoop;
import io.netty.util.concurrent.ScheduledFuture;
import io.pacer.pipeline.DrainLoop;

import java.util.concurrent.TimeUnit;

/**
 * A gateway event loop as the shared pipeline's {@link DrainLoop}: the ring is drained after the
 * loop has read every ready connection in a pass, so one batch (one journal write, one flush per
 * connection) serves all of them.
 */
final class NettyDrainLoop implements DrainLoop
{
    private final SingleThreadEventLoop loop;

    NettyDrainLoop(final SingleThreadEventLoop loop)
    {
        this.loop = loop;
    }

    @Override
    public boolean inLoop()
    {
        return loop.inEventLoop();
    }

    @Override
    public void execute(final Runnable task)
    {
        loop.execute(task);
    }

    @Override
    public void executeAtEndOfPass(final Runnable task)
    {
        loop.executeAfterEventLoopIteration(task);
    }

    @Override
    public AutoCloseable scheduleAtFixedRate(final Runnable task, final long periodMillis)
    {
        final ScheduledFuture<?> future = loop.scheduleAtFixedRate(task, periodMillis, periodMillis, TimeUnit.MILLISECONDS);
        return () -> future.cancel(false);
    }
}
