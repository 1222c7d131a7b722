package io.pacer.pipeline;

import com.lmax.disruptor.InsufficientCapacityException;
import com.lmax.disruptor.RingBuffer;
import com.lmax.disruptor.TimeoutException;
import com.lmax.disruptor.dsl.Disruptor;
import com.lmax.disruptor.dsl.ProducerType;
import io.pacer.model.PacingShard;
import io.pacer.model.ShardRouter;
import io.pacer.pipeline.journal.Journaler;
import org.agrona.concurrent.EpochClock;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The whole pipeline, wired in one place:
 *
 * <pre>
 *  producers (multi)                 consumers
 *  gateway I/O threads --+
 *  admin HTTP, watcher --+--> [ ring ] --> shard 0 .. shard N-1 (parallel) --> replier
 *  tick source ----------+                 each owns campaigns id &amp; (N-1)      answers, flushes,
 *                                                                                  closes ended streams
 * </pre>
 *
 * With a journal, the replier writes each batch to it (one write) before answering the batch.
 *
 * Every event is stamped with the ingress time by its producer; shards read no clock.
 */
public final class PacerPipeline implements AutoCloseable
{
    private static final Logger LOG = LoggerFactory.getLogger(PacerPipeline.class);

    private final PipelineConfig config;
    private final EpochClock clock;
    private final Disruptor<PacerEvent> disruptor;
    private final RingBuffer<PacerEvent> ring;
    private final List<PacingHandler> shards;
    private final PipelineExceptionHandler exceptionHandler = new PipelineExceptionHandler();
    private final TickSource ticks;
    private final Replier replier;
    private final Journaler journaler;
    private volatile boolean started;

    public PacerPipeline(final PipelineConfig config, final EpochClock clock, final Replier.DecisionListener decisions)
    {
        this(config, clock, decisions, null);
    }

    /**
     * With a journal: the replier journals each batch before any of its answers leave, so no
     * answer leaves before its request and decision are written.
     */
    public PacerPipeline(
        final PipelineConfig config, final EpochClock clock, final Replier.DecisionListener decisions,
        final Journaler journaler)
    {
        this.config = config;
        this.clock = clock;
        this.disruptor = new Disruptor<>(
            PacerEvent::new, config.ringSize(), new NamedThreads(), ProducerType.MULTI,
            WaitStrategies.fromName(config.waitStrategy()));
        this.disruptor.setDefaultExceptionHandler(exceptionHandler);

        final ShardRouter router = new ShardRouter(config.shards());
        final List<PacingHandler> handlers = new ArrayList<>(config.shards());
        for (int i = 0; i < config.shards(); i++)
        {
            handlers.add(new PacingHandler(i, router, new PacingShard(config.policy(), 1 << 16), config.queueDeadlineNanos()));
        }
        this.shards = Collections.unmodifiableList(handlers);
        this.replier = new Replier(decisions, journaler);
        disruptor
            .handleEventsWith(handlers.toArray(new PacingHandler[0]))
            .then(replier);
        this.journaler = journaler;
        this.ring = disruptor.getRingBuffer();
        this.ticks = new TickSource(this, config.tickIntervalMillis());
    }

    /** Starts the handler threads and the tick source. */
    public void start()
    {
        disruptor.start();
        ticks.start();
        started = true;
        LOG.info("pipeline started: {} shard(s), ring {} slots, wait strategy {}",
            config.shards(), config.ringSize(), config.waitStrategy());
    }

    /**
     * Publishes a bid request unless the ring is full; never blocks.
     *
     * @return false if the ring is full: answer OVERLOADED yourself
     */
    public boolean tryPublishBid(
        final long requestId, final long campaignId, final long bidCpmMicros, final Responder responder)
    {
        final long sequence = tryClaim();
        if (sequence < 0)
        {
            return false;
        }
        ring.get(sequence).bidRequest(requestId, campaignId, bidCpmMicros, clock.time(), System.nanoTime(), responder);
        ring.publish(sequence);
        return true;
    }

    /**
     * Publishes a win or loss notice; waits for room, since notices carry money and are never
     * shed. Not for event loops: they use {@link #tryPublishNotice} and stop reading instead.
     */
    public void publishNotice(final boolean win, final long requestId, final long campaignId, final long priceCpmMicros)
    {
        final long sequence = ring.next();
        ring.get(sequence).notice(win, requestId, campaignId, priceCpmMicros, clock.time(), System.nanoTime());
        ring.publish(sequence);
    }

    /**
     * Publishes a win or loss notice if there is room; never blocks.
     *
     * @return false if the ring is full: keep the notice and try again (never drop it)
     */
    public boolean tryPublishNotice(
        final boolean win, final long requestId, final long campaignId, final long priceCpmMicros)
    {
        final long sequence = tryClaim();
        if (sequence < 0)
        {
            return false;
        }
        ring.get(sequence).notice(win, requestId, campaignId, priceCpmMicros, clock.time(), System.nanoTime());
        ring.publish(sequence);
        return true;
    }

    /**
     * Publishes an admin command if there is room; never blocks.
     *
     * @return false if the ring is full (the command is untouched: try again, or fail it); true
     *         once published, or once failed because the pipeline is not running
     */
    public boolean trySubmit(final AdminCommand command)
    {
        if (!started)
        {
            command.completeExceptionally(new IllegalStateException("pipeline not running"));
            return true;
        }
        final long sequence = tryClaim();
        if (sequence < 0)
        {
            return false;
        }
        ring.get(sequence).admin(command, clock.time(), System.nanoTime());
        ring.publish(sequence);
        return true;
    }

    /**
     * Publishes an end-of-stream marker if there is room; never blocks.
     *
     * @return false if the ring is full: try again
     */
    public boolean tryPublishEndOfStream(final Responder responder)
    {
        final long sequence = tryClaim();
        if (sequence < 0)
        {
            return false;
        }
        ring.get(sequence).endOfStream(responder, clock.time(), System.nanoTime());
        ring.publish(sequence);
        return true;
    }

    /** A claimed slot, or -1 if the ring is full. */
    private long tryClaim()
    {
        try
        {
            return ring.tryNext();
        }
        catch (final InsufficientCapacityException full)
        {
            return -1;
        }
    }

    /** Publishes an admin command (waits for room) and returns it, to be awaited. */
    public AdminCommand submit(final AdminCommand command)
    {
        if (!started)
        {
            command.completeExceptionally(new IllegalStateException("pipeline not running"));
            return command;
        }
        final long sequence = ring.next();
        ring.get(sequence).admin(command, clock.time(), System.nanoTime());
        ring.publish(sequence);
        return command;
    }

    /**
     * Asks every shard for its state at one ring position; completes (on the replier thread) once
     * the journal holds everything before that position.
     */
    public SnapshotCommand requestSnapshot()
    {
        final SnapshotCommand request = new SnapshotCommand(config.shards(), config.policy());
        if (!started)
        {
            request.completeExceptionally(new IllegalStateException("pipeline not running"));
            return request;
        }
        final long sequence = ring.next();
        ring.get(sequence).snapshot(request, clock.time(), System.nanoTime());
        ring.publish(sequence);
        return request;
    }

    /** Publishes the current time. */
    public void publishTick()
    {
        final long sequence = ring.next();
        ring.get(sequence).tick(clock.time(), System.nanoTime());
        ring.publish(sequence);
    }

    /** The ring itself, for tests in this package. */
    RingBuffer<PacerEvent> ring()
    {
        return ring;
    }

    /** Free ring slots now. */
    public long remainingCapacity()
    {
        return ring.remainingCapacity();
    }

    public int shardCount()
    {
        return config.shards();
    }

    public PipelineConfig config()
    {
        return config;
    }

    /** The shard handlers; read their state only after {@link #close()} or through the ring. */
    public List<PacingHandler> shards()
    {
        return shards;
    }

    /** True once a journal write failed: no more BIDs leave (see {@link Replier}). */
    public boolean journalFailed()
    {
        return replier.journalFailed();
    }

    /** Why the journal failed, or null. */
    public Throwable journalFailure()
    {
        return replier.journalFailure();
    }

    /** Events whose handling threw (each was answered and skipped). */
    public long handlerFailures()
    {
        return exceptionHandler.failures();
    }

    /**
     * Stops the ticks, lets the handlers finish every event already published, then stops them.
     * Stop the other producers first.
     */
    @Override
    public void close()
    {
        ticks.close();
        if (!started)
        {
            return;
        }
        started = false;
        try
        {
            disruptor.shutdown(10, TimeUnit.SECONDS);
        }
        catch (final TimeoutException ex)
        {
            LOG.warn("pipeline did not drain within 10 s; halting");
            disruptor.halt();
        }
        if (journaler != null)
        {
            try
            {
                journaler.close();
            }
            catch (final RuntimeException ex)
            {
                LOG.error("JOURNAL could not be flushed and closed: what the last batches wrote may not be on disk", ex);
            }
        }
    }

    private static final class NamedThreads implements ThreadFactory
    {
        private final AtomicInteger count = new AtomicInteger();

        @Override
        public Thread newThread(final Runnable r)
        {
            final Thread thread = new Thread(r, "pacer-ring-" + count.getAndIncrement());
            thread.setDaemon(true);
            return thread;
        }
    }
}
