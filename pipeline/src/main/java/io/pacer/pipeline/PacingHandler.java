package io.pacer.pipeline;

import com.lmax.disruptor.EventHandler;
import com.lmax.disruptor.RingBuffer;
import io.pacer.model.CampaignDefinition;
import io.pacer.model.PacingShard;
import io.pacer.model.ShardCounters;
import io.pacer.model.ShardRouter;
import io.pacer.wire.Reason;

import java.util.concurrent.atomic.AtomicLongArray;
import java.util.List;

/**
 * One shard's thread: sees every event, acts on those of its own campaigns (chosen by
 * {@link ShardRouter}) and on broadcast events (ticks, queries of all campaigns). It is the
 * only writer of its {@link PacingShard}.
 * <p>
 * With a queue deadline, a bid that has already waited longer than it when the shard starts the
 * batch holding it is answered OVERLOADED and never reaches the shard: shedding cheaply is how
 * a backlog drains. It applies to bids that can queue behind a backlog
 * ({@link PacerEvent#sheddable}), and to the bids a shared pipeline's drain loop read itself only
 * when their batch starts behind a backlog (then the loop reads faster than it decides). That choice depends on a clock, so it is not part of the deterministic
 * pacing logic; the journal records it, and replay takes it from there.
 */
public final class PacingHandler implements EventHandler<PacerEvent>, ShardView
{
    private final int shardIndex;
    private final ShardRouter router;
    private final PacingShard shard;
    private final long queueDeadlineNanos;
    private long batchStartNanos;
    private boolean batchBehindBacklog;
    private long deadlineShed;
    private long batches;
    private long batchedEvents;
    private long lastQueueDepth;
    /**
     * This handler's own read-ahead (a handler on a thread of its own); null: it does not read ahead
     * itself (one sharing a loop, whose {@code RingDrainer} reads ahead for it, or one driven by
     * hand, in tests).
     */
    private ReadAhead readAhead;
    private long nextSequence;
    /** What {@link #touchNotedAhead} read: written, never read; the store keeps the reads from being optimised away. */
    @SuppressWarnings("UnusedVariable")
    private long touched;
    /** Batches, batched events, queue depth, deadline sheds, as last published (any thread reads). */
    private final AtomicLongArray published = new AtomicLongArray(4);
    private static final int BATCHES = 0;
    private static final int BATCHED_EVENTS = 1;
    private static final int QUEUE_DEPTH = 2;
    private static final int DEADLINE_SHED = 3;

    public PacingHandler(final int shardIndex, final ShardRouter router, final PacingShard shard)
    {
        this(shardIndex, router, shard, 0);
    }

    /** @param queueDeadlineNanos see {@link PipelineConfig#queueDeadlineNanos()}; 0: none */
    public PacingHandler(final int shardIndex, final ShardRouter router, final PacingShard shard, final long queueDeadlineNanos)
    {
        this.shardIndex = shardIndex;
        this.router = router;
        this.shard = shard;
        this.queueDeadlineNanos = queueDeadlineNanos;
    }

    /**
     * This handler reads its batches' events ahead in {@code ring}, to note and touch what they will
     * look up: on a thread of its own. Handlers sharing a thread are read ahead for by their {@link
     * RingDrainer}, once for all of them.
     */
    void readAheadIn(final RingBuffer<PacerEvent> ring)
    {
        final PacingHandler[] onlyThis = new PacingHandler[router.shards()];
        onlyThis[shardIndex] = this;
        readAhead = new ReadAhead(ring, onlyThis, router);
    }

    @Override
    public void onBatchStart(final long batchSize, final long queueDepth)
    {
        beginBatch(queueDeadlineNanos > 0 ? System.nanoTime() : 0, false);
        if (readAhead != null)
        {
            readAhead.beginBatch(nextSequence + batchSize - 1);
        }
        batchDone(batchSize, queueDepth);
    }

    /**
     * A batch starts at {@code nowNanos}: the queue deadline of its bids is measured from here.
     * With {@code backlog}, the batch starts behind a backlog, so the deadline applies to every bid
     * in it, {@link PacerEvent#sheddable} or not.
     */
    void beginBatch(final long nowNanos, final boolean backlog)
    {
        batchStartNanos = nowNanos;
        batchBehindBacklog = backlog;
    }

    /** Before event {@code sequence} is applied: reads ahead, if this handler does so itself ({@link ReadAhead}). */
    private void touchAhead(final long sequence)
    {
        if (readAhead != null)
        {
            readAhead.before(sequence);
        }
    }

    /**
     * Notes what {@code event}, one of this shard's bids or notices, will look up, for {@link
     * #touchNotedAhead}; changes nothing ({@link ReadAhead}).
     */
    void noteAhead(final PacerEvent event)
    {
        shard.note(event.requestId, event.campaignId, event.type != EventType.BID_REQUEST);
    }

    /** Touches what {@link #noteAhead} noted, at once (see {@link PacingShard#touchNoted}); changes nothing. */
    void touchNotedAhead()
    {
        touched += shard.touchNoted();
    }

    /** Counts a batch of {@code batchSize} events, {@code queueDepth} still waiting. */
    void batchDone(final long batchSize, final long queueDepth)
    {
        batches++;
        batchedEvents += batchSize;
        lastQueueDepth = queueDepth;
    }

    /** At the end of a batch: publishes the counters for other threads (monitoring). */
    void publishCounters()
    {
        shard.counters().publish();
        published.lazySet(BATCHES, batches);
        published.lazySet(BATCHED_EVENTS, batchedEvents);
        published.lazySet(QUEUE_DEPTH, lastQueueDepth);
        published.lazySet(DEADLINE_SHED, deadlineShed);
    }

    @Override
    public void onEvent(final PacerEvent event, final long sequence, final boolean endOfBatch)
    {
        nextSequence = sequence + 1;
        try
        {
            touchAhead(sequence);
            handle(event);
        }
        finally
        {
            if (endOfBatch)
            {
                publishCounters();
            }
        }
    }

    private void handle(final PacerEvent event)
    {
        final EventType type = event.type;
        if (!type.broadcast() && router.shardOf(event.campaignId) != shardIndex)
        {
            return;
        }
        switch (type)
        {
            case BID_REQUEST ->
            {
                if (queueDeadlineNanos > 0 && (event.sheddable || batchBehindBacklog) &&
                    batchStartNanos - event.ingressNanos > queueDeadlineNanos)
                {
                    deadlineShed++;
                    event.reason = Reason.OVERLOADED;
                }
                else
                {
                    event.reason = apply(event);
                }
            }
            case WIN_NOTICE, LOSS_NOTICE, TICK -> apply(event);
            case CAMPAIGN_UPDATE ->
            {
                apply(event);
                ShardReads.fill(event.command, shardIndex, shard, router);
            }
            case CAMPAIGN_BATCH -> applyBatch(event);
            case STATE_QUERY ->
            {
                apply(event);
                ShardReads.fill(event.command, shardIndex, shard, router);
            }
            case END_OF_STREAM ->
            {
                // nothing to decide: the replier closes the connection
            }
            case SNAPSHOT -> event.snapshot.shardState(shardIndex, serialize());
            default -> throw new IllegalStateException("unknown event type " + type);
        }
    }

    private Reason apply(final PacerEvent event)
    {
        return PacingStep.apply(shard, event.type, event.requestId, event.campaignId, event.cpmMicros, event.epochMillis,
            event.definition());
    }

    private void applyBatch(final PacerEvent event)
    {
        final List<CampaignDefinition> definitions = event.command.definitions();
        // a load's share for each shard, as routing spreads ids: a hint only, so an uneven share just grows the table
        shard.expectCampaigns(event.command.loadRemaining() / router.shards());
        for (int i = 0, size = definitions.size(); i < size; i++)
        {
            final CampaignDefinition definition = definitions.get(i);
            if (router.shardOf(definition.id()) == shardIndex)
            {
                PacingStep.apply(shard, EventType.CAMPAIGN_UPDATE, 0, definition.id(), PacerEvent.NO_PRICE,
                    event.epochMillis, definition);
            }
        }
        ShardReads.fill(event.command, shardIndex, shard, router);
    }

    private byte[] serialize()
    {
        final java.io.ByteArrayOutputStream bytes = new java.io.ByteArrayOutputStream(4096);
        try
        {
            shard.snapshotTo(new java.io.DataOutputStream(bytes));
        }
        catch (final java.io.IOException ex)
        {
            throw new java.io.UncheckedIOException(ex);
        }
        return bytes.toByteArray();
    }

    /** The shard this handler owns; read it only from this handler's thread or after it stopped. */
    public PacingShard shard()
    {
        return shard;
    }

    @Override
    public int shardIndex()
    {
        return shardIndex;
    }

    @Override
    public ShardCounters counters()
    {
        return shard.counters();
    }

    @Override
    public long batches()
    {
        return published.get(BATCHES);
    }

    @Override
    public long deadlineShed()
    {
        return published.get(DEADLINE_SHED);
    }

    @Override
    public long lastQueueDepth()
    {
        return published.get(QUEUE_DEPTH);
    }

    @Override
    public long batchedEvents()
    {
        return published.get(BATCHED_EVENTS);
    }
}
