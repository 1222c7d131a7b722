package io.pacer.pipeline;

import com.lmax.disruptor.EventHandler;
import io.pacer.model.CampaignSnapshot;
import io.pacer.model.PacingShard;
import io.pacer.model.ShardRouter;
import io.pacer.wire.Reason;

import java.util.ArrayList;
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
public final class PacingHandler implements EventHandler<PacerEvent>
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

    @Override
    public void onBatchStart(final long batchSize, final long queueDepth)
    {
        beginBatch(queueDeadlineNanos > 0 ? System.nanoTime() : 0);
        batchDone(batchSize, queueDepth);
    }

    /** A batch starts at {@code nowNanos}: the queue deadline of its bids is measured from here. */
    void beginBatch(final long nowNanos)
    {
        beginBatch(nowNanos, false);
    }

    /**
     * As {@link #beginBatch(long)}; with {@code backlog}, the batch starts behind a backlog, so the
     * deadline applies to every bid in it, {@link PacerEvent#sheddable} or not.
     */
    void beginBatch(final long nowNanos, final boolean backlog)
    {
        batchStartNanos = nowNanos;
        batchBehindBacklog = backlog;
    }

    /** Counts a batch of {@code batchSize} events, {@code queueDepth} still waiting after it. */
    void batchDone(final long batchSize, final long queueDepth)
    {
        batches++;
        batchedEvents += batchSize;
        lastQueueDepth = queueDepth;
    }

    @Override
    public void onEvent(final PacerEvent event, final long sequence, final boolean endOfBatch)
    {
        switch (event.type)
        {
            case BID_REQUEST ->
            {
                if (router.shardOf(event.campaignId) == shardIndex)
                {
                    if (queueDeadlineNanos > 0 && (event.sheddable || batchBehindBacklog) &&
                        batchStartNanos - event.ingressNanos > queueDeadlineNanos)
                    {
                        deadlineShed++;
                        event.reason = Reason.OVERLOADED;
                    }
                    else
                    {
                        event.reason = shard.bid(event.requestId, event.campaignId, event.cpmMicros, event.epochMillis);
                    }
                }
            }
            case WIN_NOTICE ->
            {
                if (router.shardOf(event.campaignId) == shardIndex)
                {
                    shard.win(event.requestId, event.campaignId, event.cpmMicros, event.epochMillis);
                }
            }
            case LOSS_NOTICE ->
            {
                if (router.shardOf(event.campaignId) == shardIndex)
                {
                    shard.loss(event.requestId, event.campaignId, event.epochMillis);
                }
            }
            case TICK -> shard.tick(event.epochMillis);
            case CAMPAIGN_UPDATE ->
            {
                if (router.shardOf(event.campaignId) == shardIndex)
                {
                    event.command.shardResult(shardIndex, List.of(shard.define(event.command.definition(), event.epochMillis)));
                }
            }
            case STATE_QUERY -> query(event);
            case END_OF_STREAM ->
            {
                // nothing to decide: the replier closes the connection
            }
            case SNAPSHOT -> event.snapshot.shardState(shardIndex, serialize());
            default -> throw new IllegalStateException("unknown event type " + event.type);
        }
    }

    private void query(final PacerEvent event)
    {
        shard.tick(event.epochMillis);
        if (event.command.allCampaigns())
        {
            final List<CampaignSnapshot> all = new ArrayList<>(shard.campaignCount());
            shard.snapshots(all);
            event.command.shardResult(shardIndex, all);
        }
        else if (router.shardOf(event.campaignId) == shardIndex)
        {
            final CampaignSnapshot one = shard.snapshot(event.campaignId);
            event.command.shardResult(shardIndex, one == null ? List.of() : List.of(one));
        }
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

    public int shardIndex()
    {
        return shardIndex;
    }

    /** Ring batches seen (plain field: for monitoring snapshots and tests). */
    public long batches()
    {
        return batches;
    }

    /** Bids answered OVERLOADED because they waited past the queue deadline (plain field). */
    public long deadlineShed()
    {
        return deadlineShed;
    }

    /** Events waiting when the last batch started. */
    public long lastQueueDepth()
    {
        return lastQueueDepth;
    }

    /** Events seen in those batches. */
    public long batchedEvents()
    {
        return batchedEvents;
    }
}
