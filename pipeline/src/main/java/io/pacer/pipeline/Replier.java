package io.pacer.pipeline;

import com.lmax.disruptor.EventHandler;

import java.util.ArrayList;
import java.util.List;

/**
 * Runs after every shard: turns decisions into answers. Bid answers are appended to their
 * connection's pending batch and each touched connection is flushed once at the end of the ring
 * batch. Admin commands are completed here, after every shard has applied them. It also clears
 * the slot's references so that nothing outlives its event.
 */
public final class Replier implements EventHandler<PacerEvent>
{
    private final List<Responder> touched = new ArrayList<>();
    private final DecisionListener decisions;

    /** Told about every answered bid, on the replier thread (metrics hook). */
    @FunctionalInterface
    public interface DecisionListener
    {
        void onDecision(PacerEvent event);

        DecisionListener NONE = event -> {};
    }

    public Replier(final DecisionListener decisions)
    {
        this.decisions = decisions;
    }

    @Override
    public void onEvent(final PacerEvent event, final long sequence, final boolean endOfBatch)
    {
        try
        {
            final Responder responder = event.responder;
            if (event.type == EventType.END_OF_STREAM)
            {
                flushTouched();
                responder.endOfStream();
            }
            else if (responder != null)
            {
                if (responder.append(event.requestId, event.reason))
                {
                    touched.add(responder);
                }
                decisions.onDecision(event);
            }
            else if (event.command != null)
            {
                event.command.completeFromShards();
            }
        }
        finally
        {
            event.responder = null;
            event.command = null;
            if (endOfBatch)
            {
                flushTouched();
            }
        }
    }

    private void flushTouched()
    {
        for (int i = 0, size = touched.size(); i < size; i++)
        {
            touched.get(i).flush();
        }
        touched.clear();
    }
}
