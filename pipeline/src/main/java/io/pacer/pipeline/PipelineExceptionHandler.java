package io.pacer.pipeline;

import com.lmax.disruptor.ExceptionHandler;
import io.pacer.wire.Reason;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.concurrent.atomic.AtomicLong;

/**
 * Contains a failure while handling one event, so that a bad event never kills a shard: the
 * failure is counted, logged (the first few in full, then one line in a thousand), a bid is
 * answered NO_BID / OVERLOADED, an admin command fails with the cause, and the handler goes on
 * with the next event. Replaces the Disruptor's default, which stops the handler thread.
 */
public final class PipelineExceptionHandler implements ExceptionHandler<PacerEvent>
{
    private static final Logger LOG = LoggerFactory.getLogger(PipelineExceptionHandler.class);
    private static final int LOGGED_IN_FULL = 10;

    private final AtomicLong failures = new AtomicLong();

    @Override
    public void handleEventException(final Throwable ex, final long sequence, final PacerEvent event)
    {
        final long count = failures.incrementAndGet();
        if (count <= LOGGED_IN_FULL)
        {
            LOG.error("event {} at sequence {} failed; answered and skipped (failure #{})", event, sequence, count, ex);
        }
        else if (count % 1000 == 0)
        {
            LOG.error("{} events have failed so far; latest {} at sequence {}: {}", count, event, sequence, ex.toString());
        }
        if (event.type == EventType.BID_REQUEST || event.responder != null)
        {
            event.reason = Reason.OVERLOADED;
        }
        if (event.command != null)
        {
            event.command.completeExceptionally(ex);
        }
        if (event.snapshot != null)
        {
            event.snapshot.completeExceptionally(ex);
        }
    }

    @Override
    public void handleOnStartException(final Throwable ex)
    {
        LOG.error("pipeline handler failed to start", ex);
    }

    @Override
    public void handleOnShutdownException(final Throwable ex)
    {
        LOG.error("pipeline handler failed to shut down", ex);
    }

    /** Events whose handling threw, across all handlers. */
    public long failures()
    {
        return failures.get();
    }
}
