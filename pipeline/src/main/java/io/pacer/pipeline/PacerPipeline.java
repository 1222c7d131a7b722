package io.pacer.pipeline;

import com.lmax.disruptor.EventPoller;
import com.lmax.disruptor.InsufficientCapacityException;
import com.lmax.disruptor.RingBuffer;
import com.lmax.disruptor.TimeoutException;
import com.lmax.disruptor.YieldingWaitStrategy;
import com.lmax.disruptor.dsl.Disruptor;
import com.lmax.disruptor.dsl.ProducerType;
import io.pacer.model.PacingShard;
import io.pacer.model.ShardRouter;
import io.pacer.pipeline.journal.Journaler;
import io.pacer.units.CpmMicros;
import io.pacer.units.EpochMillis;
import io.pacer.units.Units;
import org.agrona.concurrent.EpochClock;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

/**
 * The whole pipeline, wired in one place:
 *
 * <pre>
 *  producers (multi)                 consumers, in ring order
 *  gateway I/O threads --+
 *  admin HTTP, watcher --+--> [ ring ] --> shard 0 .. shard N-1 --> replier
 *  tick source ----------+                 each owns campaigns     journals the batch, then
 *                                          id &amp; (N-1)             answers, flushes, closes
 * </pre>
 *
 * The constructor is the one switch over {@link ThreadingMode}: in {@code SHARED} every consumer
 * runs on one {@link DrainLoop} (the gateway event loop that reads, in the server) through a
 * {@link RingDrainer}; in {@code DEDICATED} each shard and the replier has a Disruptor thread.
 * Both see the same events in the same order and make the same decisions.
 * <p>
 * Every event is stamped with the ingress time by its producer; shards read no clock.
 *
 * Every publish is the same three steps: {@link #claim} a slot (the one place that knows what a
 * full ring means on each thread), fill it through one of {@link PacerEvent}'s typed setters, and
 * {@link #commit} it. The fill is a plain method call rather than a Disruptor
 * {@code EventTranslator}, whose arguments would travel through varargs or a capturing object
 * on the hot path.
 *
 * <p>Over 300 lines because it is the one place that wires the ring in both threading modes (the
 * composition root of the pipeline, in the way Aeron's {@code MediaDriver} is).
 */
public final class PacerPipeline implements AutoCloseable
{
    private static final Logger LOG = LoggerFactory.getLogger(PacerPipeline.class);
    private static final long NO_ROOM = -1;

    private final PipelineConfig config;
    private final EpochClock clock;
    private final Disruptor<PacerEvent> disruptor;
    private final RingBuffer<PacerEvent> ring;
    private final List<PacingHandler> shards;
    private final PipelineExceptionHandler exceptionHandler = new PipelineExceptionHandler();
    private final Replier replier;
    private final Journaler journaler;
    private final DrainLoop drainLoop;
    private final RingDrainer drainer;
    /** A dedicated pipeline's consumer threads, joined on close before the journal closes. */
    private final List<Thread> consumerThreads = new CopyOnWriteArrayList<>();
    private final OwnThreadDrainLoop ownLoop;
    private final TickSource ticks;
    /** Cluster mode's consumer of the ring, or null. */
    private final RingConsumer external;
    private volatile boolean started;
    /** Once closed, a second close does nothing: above all, never closes a journal the first left open. */
    private boolean closed;
    /** Written by the drain loop only. */
    private volatile long ringFullDrains;

    public PacerPipeline(final PipelineConfig config, final EpochClock clock, final Replier.DecisionListener decisions)
    {
        this(config, clock, decisions, Journaler.NONE, null);
    }

    /**
     * @param journaler journals each batch before any of its answers leave, so no answer leaves
     *                  before its request and decision are written; {@link Journaler#NONE} for none
     * @param drainLoop where a {@link ThreadingMode#SHARED} pipeline runs its consumers; null: a
     *                  thread of its own ({@link OwnThreadDrainLoop}). Ignored when dedicated.
     */
    public PacerPipeline(
        final PipelineConfig config, final EpochClock clock, final Replier.DecisionListener decisions,
        final Journaler journaler, final DrainLoop drainLoop)
    {
        this(config, clock, decisions, journaler, drainLoop, null);
    }

    /**
     * Cluster mode: {@code consumer} takes every event off the ring in place of the shards and the
     * replier (its own thread; producers publish as to a dedicated pipeline). There are no ticks:
     * the cluster's timers keep its time.
     */
    public PacerPipeline(final PipelineConfig config, final EpochClock clock, final RingConsumer.Factory consumer)
    {
        this(config, clock, Replier.DecisionListener.NONE, Journaler.NONE, null, consumer);
    }

    private PacerPipeline(
        final PipelineConfig config, final EpochClock clock, final Replier.DecisionListener decisions,
        final Journaler journaler, final DrainLoop drainLoop, final RingConsumer.Factory consumer)
    {
        this.config = config;
        this.clock = clock;
        this.journaler = journaler;
        this.replier = new Replier(decisions, journaler);
        final ShardRouter router = new ShardRouter(config.shards());
        // in cluster mode the shards live in the cluster's service, not here
        final PacingHandler[] handlers = consumer != null ? new PacingHandler[0] : handlers(config, router);
        this.shards = List.of(handlers);

        if (consumer != null)
        {
            this.disruptor = new Disruptor<>(PacerEvent::new, config.ringSize(), PacerThreads.factory("pacer-ring"),
                ProducerType.MULTI, new YieldingWaitStrategy());
            this.ring = disruptor.getRingBuffer();
            final EventPoller<PacerEvent> poller = ring.newPoller();
            ring.addGatingSequences(poller.getSequence());
            this.external = consumer.create(poller);
            this.ownLoop = null;
            this.drainLoop = null;
            this.drainer = null;
            this.ticks = null;
            return;
        }
        this.external = null;
        switch (config.threading())
        {
            case SHARED ->
            {
                // nobody waits on the ring: a wait strategy whose publish signals nothing
                this.disruptor = new Disruptor<>(PacerEvent::new, config.ringSize(), PacerThreads.factory("pacer-ring"),
                    ProducerType.MULTI, new YieldingWaitStrategy());
                this.ownLoop = drainLoop == null ? new OwnThreadDrainLoop() : null;
                this.drainLoop = drainLoop == null ? ownLoop : drainLoop;
                this.ring = disruptor.getRingBuffer();
                // the drainer reads ahead for all the shards on its loop, once
                this.drainer = new RingDrainer(ring, handlers, router, replier, exceptionHandler, this.drainLoop);
            }
            case DEDICATED ->
            {
                this.disruptor = new Disruptor<>(PacerEvent::new, config.ringSize(),
                    PacerThreads.factory("pacer-ring", consumerThreads::add), ProducerType.MULTI,
                    WaitStrategies.fromName(config.waitStrategy()));
                disruptor.setDefaultExceptionHandler(exceptionHandler);
                disruptor.handleEventsWith(handlers).then(replier);
                this.ownLoop = null;
                this.drainLoop = null;
                this.ring = disruptor.getRingBuffer();
                this.drainer = null;
                for (final PacingHandler handler : handlers)
                {
                    handler.readAheadIn(ring);
                }
            }
            default -> throw new IllegalArgumentException("threading " + config.threading());
        }
        this.ticks = new TickSource(this, config.tickIntervalMillis(), this.drainLoop);
    }

    private static PacingHandler[] handlers(final PipelineConfig config, final ShardRouter router)
    {
        final PacingHandler[] handlers = new PacingHandler[config.shards()];
        for (int i = 0; i < handlers.length; i++)
        {
            handlers[i] = new PacingHandler(
                i, router, new PacingShard(config.policy(), 1 << 16), config.queueDeadlineNanos());
        }
        return handlers;
    }

    /** Starts the consumers and the tick source. */
    public void start()
    {
        if (external != null)
        {
            external.start();
            started = true;
            LOG.info("pipeline started: the cluster's log decides, ring {} slots", config.ringSize());
            return;
        }
        if (drainer == null)
        {
            disruptor.start();
        }
        started = true;
        ticks.start();
        LOG.info("pipeline started: {} threading, {} shard(s), ring {} slots{}",
            config.threading().name().toLowerCase(java.util.Locale.ROOT), config.shards(), config.ringSize(),
            drainer == null ? ", wait strategy " + config.waitStrategy() : "");
    }

    /**
     * Publishes a bid request unless the ring is full; never blocks. Does not wake a shared
     * drain loop: call {@link #wake()} once after a read's publishes.
     *
     * @return false if the ring is full: answer OVERLOADED yourself
     */
    public boolean tryPublishBid(
        final long requestId, final long campaignId, final @CpmMicros long bidCpmMicros, final Responder responder)
    {
        return tryPublishBid(requestId, campaignId, bidCpmMicros, responder, now(), System.nanoTime());
    }

    /**
     * As {@link #tryPublishBid(long, long, long, Responder)}, stamped with an ingress time the
     * caller read from {@link #clock()} and {@link System#nanoTime()}: a gateway connection reads
     * the clocks once per read, not once per frame.
     */
    public boolean tryPublishBid(
        final long requestId, final long campaignId, final @CpmMicros long bidCpmMicros, final Responder responder,
        final @EpochMillis long epochMillis, final long ingressNanos)
    {
        return tryPublishBid(requestId, campaignId, bidCpmMicros, responder, epochMillis, ingressNanos, GatewayIds.ANONYMOUS);
    }

    /** As above, from the gateway identity {@code gateway} ({@link GatewayIds}), which the journal records. */
    public boolean tryPublishBid(
        final long requestId, final long campaignId, final @CpmMicros long bidCpmMicros, final Responder responder,
        final @EpochMillis long epochMillis, final long ingressNanos, final int gateway)
    {
        final long sequence = claim(false);
        if (sequence == NO_ROOM)
        {
            return false;
        }
        final boolean drainsItself = drainer != null && drainLoop.inLoop();
        final PacerEvent event = ring.get(sequence);
        event.bidRequest(requestId, campaignId, bidCpmMicros, epochMillis, ingressNanos, responder, !drainsItself);
        event.gateway = gateway;
        commit(sequence, false);
        return true;
    }

    /**
     * Publishes a win or loss notice if there is room; never blocks, does not wake (see
     * {@link #tryPublishBid}).
     *
     * @return false if the ring is full: keep the notice and try again (never drop it)
     */
    public boolean tryPublishNotice(
        final boolean win, final long requestId, final long campaignId, final @CpmMicros long priceCpmMicros)
    {
        return tryPublishNotice(win, requestId, campaignId, priceCpmMicros, now(), System.nanoTime());
    }

    /** As {@link #tryPublishNotice(boolean, long, long, long)}, with the caller's ingress time. */
    public boolean tryPublishNotice(
        final boolean win, final long requestId, final long campaignId, final @CpmMicros long priceCpmMicros,
        final @EpochMillis long epochMillis, final long ingressNanos)
    {
        return tryPublishNotice(win, requestId, campaignId, priceCpmMicros, epochMillis, ingressNanos, GatewayIds.ANONYMOUS);
    }

    /** As above, from the gateway identity {@code gateway} ({@link GatewayIds}), which the journal records. */
    public boolean tryPublishNotice(
        final boolean win, final long requestId, final long campaignId, final @CpmMicros long priceCpmMicros,
        final @EpochMillis long epochMillis, final long ingressNanos, final int gateway)
    {
        final long sequence = claim(false);
        if (sequence == NO_ROOM)
        {
            return false;
        }
        final PacerEvent event = ring.get(sequence);
        event.notice(win, requestId, campaignId, priceCpmMicros, epochMillis, ingressNanos);
        event.gateway = gateway;
        commit(sequence, false);
        return true;
    }

    /**
     * Publishes a win or loss notice; waits for room, since notices carry money and are never
     * shed. Not for event loops: they use {@link #tryPublishNotice} and stop reading instead.
     */
    public void publishNotice(final boolean win, final long requestId, final long campaignId,
        final @CpmMicros long priceCpmMicros)
    {
        final long sequence = claim(true);
        ring.get(sequence).notice(win, requestId, campaignId, priceCpmMicros, now(), System.nanoTime());
        commit(sequence, true);
    }

    /**
     * Publishes an end-of-stream marker if there is room; never blocks.
     *
     * @return false if the ring is full: try again
     */
    public boolean tryPublishEndOfStream(final Responder responder)
    {
        final long sequence = claim(false);
        if (sequence == NO_ROOM)
        {
            return false;
        }
        ring.get(sequence).endOfStream(responder, now(), System.nanoTime());
        commit(sequence, true);
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
        final long sequence = claim(false);
        if (sequence == NO_ROOM)
        {
            return false;
        }
        ring.get(sequence).admin(command, now(), System.nanoTime());
        commit(sequence, true);
        return true;
    }

    /** Publishes an admin command (waits for room) and returns it, to be awaited. */
    public AdminCommand submit(final AdminCommand command)
    {
        if (!started)
        {
            command.completeExceptionally(new IllegalStateException("pipeline not running"));
            return command;
        }
        final long sequence = claim(true);
        ring.get(sequence).admin(command, now(), System.nanoTime());
        commit(sequence, true);
        return command;
    }

    /**
     * Asks every shard for its state at one ring position; completes (on the replier's thread)
     * once the journal holds everything before that position.
     */
    public SnapshotCommand requestSnapshot()
    {
        final SnapshotCommand request = new SnapshotCommand(config.shards(), config.policy());
        if (!started)
        {
            request.completeExceptionally(new IllegalStateException("pipeline not running"));
            return request;
        }
        final long sequence = claim(true);
        ring.get(sequence).snapshot(request, now(), System.nanoTime());
        commit(sequence, true);
        return request;
    }

    /** Publishes the current time. */
    public void publishTick()
    {
        final long sequence = claim(true);
        ring.get(sequence).tick(now(), System.nanoTime());
        commit(sequence, true);
    }

    /**
     * The one claim: a ring slot, or {@link #NO_ROOM}. On a shared drain loop a full ring is
     * drained first, since the loop itself is what frees room. Otherwise {@code wait} waits for
     * room and its absence gives up at once.
     */
    private long claim(final boolean wait)
    {
        int waits = 0;
        while (true)
        {
            try
            {
                return ring.tryNext();
            }
            catch (final InsufficientCapacityException full)
            {
                final boolean drained = drainer != null && drainLoop.inLoop() && drainer.drain() > 0;
                if (drained)
                {
                    ringFullDrains++;
                }
                else
                {
                    if (!wait)
                    {
                        return NO_ROOM;
                    }
                    if (drainer != null && drainLoop.inLoop())
                    {
                        throw new IllegalStateException("ring full while its own drain loop publishes from a drain");
                    }
                    // an admin, watcher or tick thread waits for the consumers: spin briefly, then
                    // park, so that on a small host it does not take the core they need
                    if (++waits < 100)
                    {
                        Thread.onSpinWait();
                    }
                    else
                    {
                        LockSupport.parkNanos(20_000);
                    }
                }
            }
        }
    }

    /**
     * Makes a filled slot visible to the consumers; {@code wake}: and has a shared drain loop
     * drain soon (a gateway read wakes once for all its frames instead, see {@link #wake()}).
     */
    private void commit(final long sequence, final boolean wake)
    {
        ring.publish(sequence);
        if (wake)
        {
            wake();
        }
    }

    /**
     * After publishing: a shared drain loop drains soon (requests coalesce, once per loop pass).
     * Nothing to do when dedicated, where the wait strategy wakes the consumers.
     */
    public void wake()
    {
        if (drainer != null)
        {
            drainer.requestDrain();
        }
    }

    /**
     * On a shared pipeline's drain loop, now: handles every event published so far (a loop that
     * wants a drain at once rather than at the end of its pass, such as a benchmark's).
     *
     * @return events handled
     */
    public int drain()
    {
        if (drainer == null || !drainLoop.inLoop())
        {
            throw new IllegalStateException("drain() is for a shared pipeline's drain loop");
        }
        return drainer.drain();
    }

    /** The clock that stamps ingress times: the only time pacing knows. */
    public EpochClock clock()
    {
        return clock;
    }

    /** The ingress time to stamp an event with: the clock's epoch milliseconds. */
    private @EpochMillis long now()
    {
        return Units.epochMillis(clock.time());
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

    /** What metrics may read of each shard while the pipeline runs. */
    public List<ShardView> shards()
    {
        return external != null ? external.shards() : List.copyOf(shards);
    }

    /**
     * Each shard's pacing state, for recovery to rebuild before {@link #start()}; once the
     * pipeline runs, only its handlers touch it.
     */
    public List<PacingShard> shardStates()
    {
        return shards.stream().map(PacingHandler::shard).toList();
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

    /**
     * Times a shared pipeline's drain loop found the ring full as it published, and drained it
     * there and then to make room (the loop is the ring's consumer: it never waits for room).
     */
    public long ringFullDrains()
    {
        return ringFullDrains;
    }

    /** Events whose handling threw (each was answered and skipped). */
    public long handlerFailures()
    {
        return exceptionHandler.failures();
    }

    /**
     * Stops the ticks, lets the consumers finish every event already published, then stops them
     * and, once none of them can append any more, closes the journal. Stop the other producers
     * first: an event published after the consumers have stopped is neither handled nor answered.
     */
    @Override
    public void close()
    {
        if (external != null)
        {
            started = false;
            external.close();
            return;
        }
        ticks.close();
        if (closed)
        {
            return;
        }
        closed = true;
        boolean stopped = true;
        if (started)
        {
            started = false;
            stopped = drainer == null ? stopDedicated() : stopShared();
        }
        if (stopped)
        {
            journaler.close();
        }
        else
        {
            // closing it under a consumer still appending would tear the record in hand
            LOG.error("JOURNAL left open: a ring consumer did not stop; the OS closes the file at exit");
        }
        if (ownLoop != null)
        {
            ownLoop.close();
        }
    }

    /**
     * Waits for the consumers to reach the ring's cursor, halts them, and waits for their threads
     * to end: a halted consumer finishes the batch in hand (its journal write included) first.
     *
     * @return whether every consumer thread has ended
     */
    private boolean stopDedicated()
    {
        try
        {
            disruptor.shutdown(10, TimeUnit.SECONDS);
        }
        catch (final TimeoutException ex)
        {
            LOG.warn("pipeline did not drain within 10 s; halting");
            disruptor.halt();
        }
        final long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        for (final Thread consumer : consumerThreads)
        {
            try
            {
                consumer.join(Math.max(1, TimeUnit.NANOSECONDS.toMillis(deadline - System.nanoTime())));
            }
            catch (final InterruptedException ex)
            {
                Thread.currentThread().interrupt();
                return false;
            }
            if (consumer.isAlive())
            {
                LOG.error("ring consumer {} did not stop within 10 s of the halt", consumer.getName());
                return false;
            }
        }
        final long unhandled = ring.getCursor() - disruptor.getSequenceValueFor(replier);
        if (unhandled > 0)
        {
            LOG.warn("{} event(s) published after the consumers stopped: not handled, not answered", unhandled);
        }
        return true;
    }

    /**
     * Drains on the loop until the ring is empty (10 s at most), then stops draining, on the loop.
     *
     * @return whether the drainer is stopped (or its loop is gone), so that nothing drains any more
     */
    private boolean stopShared()
    {
        final long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        if (drainLoop.inLoop())
        {
            // closed from the loop itself: nothing else drains while this runs
            boolean more = true;
            while (more && System.nanoTime() < deadline)
            {
                more = drainer.drain() > 0;
            }
            drainer.stop();
            return true;
        }
        while (true)
        {
            final CompletableFuture<Boolean> stopped = new CompletableFuture<>();
            try
            {
                drainLoop.execute(() ->
                {
                    try
                    {
                        drainer.drain();
                        final boolean idle = drainer.idle();
                        final boolean stop = idle || System.nanoTime() > deadline;
                        if (stop)
                        {
                            drainer.stop();
                            if (!idle)
                            {
                                LOG.warn("pipeline did not drain within 10 s; stopping");
                            }
                        }
                        stopped.complete(stop);
                    }
                    catch (final RuntimeException ex)
                    {
                        drainer.stop();
                        stopped.completeExceptionally(ex);
                    }
                });
            }
            catch (final RejectedExecutionException loopGone)
            {
                LOG.warn("pipeline could not drain: its loop has stopped");
                return true;
            }
            try
            {
                if (stopped.get(20, TimeUnit.SECONDS))
                {
                    return true;
                }
            }
            catch (final InterruptedException ex)
            {
                Thread.currentThread().interrupt();
                return false;
            }
            catch (final ExecutionException ex)
            {
                // the task stopped the drainer before it failed
                LOG.error("pipeline could not drain on its loop", ex.getCause());
                return true;
            }
            catch (final java.util.concurrent.TimeoutException ex)
            {
                LOG.error("pipeline could not drain on its loop within 20 s");
                return false;
            }
        }
    }
}
