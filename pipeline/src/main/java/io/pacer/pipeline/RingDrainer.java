package io.pacer.pipeline;

import com.lmax.disruptor.EventPoller;
import com.lmax.disruptor.ExceptionHandler;
import com.lmax.disruptor.RingBuffer;
import io.pacer.model.ShardRouter;

import java.util.concurrent.atomic.AtomicBoolean;

/**
 * The ring's consumers in {@link ThreadingMode#SHARED}: on one {@link DrainLoop}, every event is
 * handed to each shard's {@link PacingHandler} and then to the {@link Replier}, exactly as the
 * dedicated threads would see it, batch by batch. A batch is whatever one poll of the ring finds
 * published; its end is where the replier journals and answers.
 * <p>
 * Before each handler applies an event, the drainer reads ahead once for all of them: it notes each
 * of the next {@link ReadAhead#EVENTS} gateway events into its own shard's handler and
 * then has every handler touch what was noted, so that the cache misses overlap (as a handler on a
 * thread of its own reads ahead for itself). Each handler reading ahead for itself here walked the
 * same events once per shard and kept only its own.
 * <p>
 * Producers call {@link #requestDrain()} after publishing; requests coalesce into one drain per
 * loop pass. A failure while handling an event is contained as in dedicated mode: counted,
 * answered, and the next event goes on.
 */
final class RingDrainer implements EventPoller.Handler<PacerEvent>
{
    private final RingBuffer<PacerEvent> ring;
    private final EventPoller<PacerEvent> poller;
    private final PacingHandler[] shards;
    private final Replier replier;
    private final ExceptionHandler<PacerEvent> exceptions;
    private final DrainLoop loop;
    /**
     * A batch that starts with at least this many events published or claimed is behind a
     * backlog: the loop has read faster than it decides, and the queue deadline sheds even the
     * bids it read itself (see {@link PacerEvent#sheddable}). A quiet pass holds a few events per
     * connection; half a small ring at most.
     */
    static final int BACKLOG_EVENTS = 256;

    private final int maxEventsPerDrain;
    private final int backlogEvents;
    private final AtomicBoolean drainRequested = new AtomicBoolean();
    private final Runnable drainTask = this::drainAsRequested;
    private boolean draining;
    private boolean stopped;
    private boolean batchStarted;
    private long batchSize;
    /** Reads ahead for all the shards at once. */
    private final ReadAhead readAhead;

    RingDrainer(
        final RingBuffer<PacerEvent> ring, final PacingHandler[] shards, final ShardRouter router, final Replier replier,
        final ExceptionHandler<PacerEvent> exceptions, final DrainLoop loop)
    {
        if (shards.length != router.shards())
        {
            throw new IllegalArgumentException(shards.length + " handlers for " + router.shards() + " shards");
        }
        this.ring = ring;
        this.poller = ring.newPoller();
        ring.addGatingSequences(poller.getSequence());
        this.shards = shards;
        this.readAhead = new ReadAhead(ring, shards, router);
        this.replier = replier;
        this.exceptions = exceptions;
        this.loop = loop;
        this.maxEventsPerDrain = ring.getBufferSize();
        this.backlogEvents = Math.min(BACKLOG_EVENTS, ring.getBufferSize() / 2);
    }

    /**
     * Any thread, after publishing: the loop drains soon. On the loop itself the drain waits for
     * the end of the current pass, so that every connection read in it shares one batch.
     */
    void requestDrain()
    {
        if (!drainRequested.getAndSet(true))
        {
            if (loop.inLoop())
            {
                loop.executeAtEndOfPass(drainTask);
            }
            else
            {
                loop.execute(drainTask);
            }
        }
    }

    private void drainAsRequested()
    {
        drainRequested.set(false);
        drain();
    }

    /**
     * On the loop: handles what is published, batch by batch, until the ring is empty or a
     * ring's worth has been handled (then it asks for another drain, so I/O is not starved).
     * A call made while a drain runs (from inside an answer's write) returns at once: the running
     * drain goes on to the events published meanwhile.
     *
     * @return events handled
     */
    int drain()
    {
        if (draining || stopped)
        {
            return 0;
        }
        draining = true;
        long handled = 0;
        try
        {
            while (handled < maxEventsPerDrain)
            {
                batchStarted = false;
                batchSize = 0;
                final EventPoller.PollState state = poller.poll(this);
                if (state != EventPoller.PollState.PROCESSING)
                {
                    break;
                }
                handled += batchSize;
            }
        }
        catch (final Exception ex)
        {
            // onEvent contains every failure; a poller failure is a bug worth stopping for
            throw new IllegalStateException("ring poll failed", ex);
        }
        finally
        {
            draining = false;
        }
        if (handled >= maxEventsPerDrain)
        {
            requestDrain();
        }
        return (int)handled;
    }

    @Override
    public boolean onEvent(final PacerEvent event, final long sequence, final boolean endOfBatch)
    {
        if (!batchStarted)
        {
            batchStarted = true;
            final long now = System.nanoTime();
            final long cursor = ring.getCursor();
            final boolean backlog = cursor - sequence >= backlogEvents;
            for (final PacingHandler shard : shards)
            {
                shard.beginBatch(now, backlog);
            }
            readAhead.beginBatch(cursor);
        }
        batchSize++;
        readAhead.before(sequence);
        for (final PacingHandler shard : shards)
        {
            try
            {
                shard.onEvent(event, sequence, false);
            }
            catch (final Throwable ex)
            {
                exceptions.handleEventException(ex, sequence, event);
            }
        }
        if (endOfBatch)
        {
            // before the replier answers the batch, as a dedicated shard publishes before its sequence moves
            final long depth = ring.getCursor() - sequence;
            for (final PacingHandler shard : shards)
            {
                shard.batchDone(batchSize, depth);
                shard.publishCounters();
            }
        }
        try
        {
            replier.onEvent(event, sequence, endOfBatch);
        }
        catch (final Throwable ex)
        {
            exceptions.handleEventException(ex, sequence, event);
        }
        return true;
    }

    /** On the loop: drains no more (the pipeline has closed; the journal is closing). */
    void stop()
    {
        stopped = true;
    }

    /** Whether every published event has been handled. */
    boolean idle()
    {
        return poller.getSequence().get() >= ring.getCursor();
    }
}
