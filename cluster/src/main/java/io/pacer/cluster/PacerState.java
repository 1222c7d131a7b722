package io.pacer.cluster;

import io.pacer.cluster.sbe.IngressBatchDecoder;
import io.pacer.model.CampaignDefinition;
import io.pacer.model.PacingPolicy;
import io.pacer.model.PacingShard;
import io.pacer.model.ShardRouter;
import io.pacer.pipeline.AdminCommand;
import io.pacer.pipeline.EventType;
import io.pacer.pipeline.PacerEvent;
import io.pacer.pipeline.PacingStep;
import io.pacer.pipeline.ShardReads;
import io.pacer.units.Units;
import io.pacer.wire.Reason;
import org.agrona.MutableDirectBuffer;
import org.agrona.collections.Int2ObjectHashMap;
import org.agrona.concurrent.UnsafeBuffer;
import org.agrona.io.DirectBufferDataInput;

import java.io.DataInput;
import java.io.DataOutput;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteOrder;
import java.util.ArrayList;
import java.util.List;

/**
 * Everything a cluster member's service decides with: the pacing shards (today's
 * {@link PacingShard}s, routed by campaign id exactly as a single node routes them), each origin
 * node's {@link AnswerWindow}, and the campaign batch a node is still sending in parts. Only the
 * service thread touches it, and only in log order, so every member holds the same state at the
 * same log position. Time comes from the log's timestamps alone.
 */
public final class PacerState
{
    private static final EventType[] TYPES = EventType.values();

    private final PacingPolicy policy;
    private final ShardRouter router;
    private final List<PacingShard> shards;
    private final Int2ObjectHashMap<AnswerWindow> windows = new Int2ObjectHashMap<>();
    /** Per origin, the campaign batch it is still sending in parts, and the number of its last part. */
    private final Int2ObjectHashMap<PartialBatch> partialBatches = new Int2ObjectHashMap<>();
    private final DirectBufferDataInput definitionInput = new DirectBufferDataInput(new UnsafeBuffer(new byte[0]));
    private final UnsafeBuffer definitionBytes = new UnsafeBuffer(new byte[0]);
    private final List<CampaignDefinition> definitions = new ArrayList<>();
    private byte[] types = new byte[256];
    private long[] requestIds = new long[256];
    private long[] campaignIds = new long[256];
    private long[] prices = new long[256];
    private int[] definitionCounts = new int[256];
    private long timerDeadline;
    private boolean duplicate;
    /** Records handed to the recorder so far: the next one's sequence. */
    private long records;
    private long abandonedParts;
    private Recorder recorder = Recorder.NONE;
    /** What {@link #touchAhead} read: written, never read; the store keeps the reads from being optimised away. */
    @SuppressWarnings("UnusedVariable")
    private long touched;

    /** A campaign batch arriving in parts: what has come, and the batch number of its last part. */
    private static final class PartialBatch
    {
        final List<CampaignDefinition> definitions = new ArrayList<>();
        long lastPart;
    }

    public PacerState(final int shardCount, final PacingPolicy policy)
    {
        this.policy = policy;
        this.router = new ShardRouter(shardCount);
        final List<PacingShard> list = new ArrayList<>(shardCount);
        for (int i = 0; i < shardCount; i++)
        {
            list.add(new PacingShard(policy, 1 << 16));
        }
        this.shards = List.copyOf(list);
        definitionInput.byteOrder(ByteOrder.BIG_ENDIAN);
    }

    /** Where every applied input goes, with its decision and its sequence; {@link Recorder#NONE} by default. */
    public void recorder(final Recorder recorder)
    {
        this.recorder = recorder;
    }

    /** The sequence the next record will have: records so far. Part of the state. */
    public long records()
    {
        return records;
    }

    /**
     * Decides one batch at {@code nowMillis}, the log's timestamp, writing one reason byte per event
     * into {@code reasons}. A batch decided before (a resend after a leader change) is not decided
     * again: its recorded reasons are copied, and {@link #wasDuplicate()} says so.
     *
     * @return how many reasons were written; -1 for a batch too old to be remembered
     */
    public int decide(final IngressBatchDecoder batch, final long nowMillis, final MutableDirectBuffer reasons)
    {
        final int origin = batch.origin();
        final long seq = batch.batchSeq();
        final AnswerWindow window = windows.computeIfAbsent(origin, ignored -> new AnswerWindow());
        duplicate = seq <= window.lastSeq();
        if (duplicate)
        {
            return window.copy(seq, reasons);
        }
        final boolean continues = batch.continues() != 0;
        final int count = readEvents(batch);
        readDefinitions(batch);
        dropAbandonedPart(origin, seq, count);
        int nextDefinition = 0;
        for (int i = 0; i < count; i++)
        {
            if (i % PacingShard.NOTED == 0)
            {
                touchAhead(i, count);
            }
            final EventType type = TYPES[types[i]];
            Reason reason = Reason.NONE;
            switch (type)
            {
                case BID_REQUEST ->
                {
                    reason = PacingStep.apply(shardOf(campaignIds[i]), type, requestIds[i], campaignIds[i],
                        Units.cpmMicros(prices[i]), Units.epochMillis(nowMillis), null);
                    recorder.bid(records++, nowMillis, requestIds[i], campaignIds[i], prices[i], reason.value());
                }
                case WIN_NOTICE, LOSS_NOTICE ->
                {
                    PacingStep.apply(shardOf(campaignIds[i]), type, requestIds[i], campaignIds[i],
                        Units.cpmMicros(prices[i]), Units.epochMillis(nowMillis), null);
                    recorder.notice(records++, type == EventType.WIN_NOTICE, nowMillis, requestIds[i], campaignIds[i],
                        type == EventType.WIN_NOTICE ? prices[i] : 0);
                }
                case CAMPAIGN_UPDATE -> define(definitions.get(nextDefinition++), nowMillis);
                case CAMPAIGN_BATCH ->
                {
                    final int n = definitionCounts[i];
                    final List<CampaignDefinition> part = definitions.subList(nextDefinition, nextDefinition + n);
                    nextDefinition += n;
                    batchPart(origin, seq, part, continues && i == count - 1, nowMillis);
                }
                default -> throw new IllegalArgumentException("event type " + type + " is not logged");
            }
            reasons.putByte(i, (byte)reason.value());
        }
        window.record(seq, reasons, count);
        recorder.endOfBatch();
        publishCounters();
        return count;
    }

    /** Whether the last {@link #decide} answered a batch decided before. */
    public boolean wasDuplicate()
    {
        return duplicate;
    }

    /**
     * A campaign batch, or one part of it: the definitions wait until the last part, so that no bid
     * sees some of a batch applied and others not.
     */
    private void batchPart(
        final int origin, final long seq, final List<CampaignDefinition> part, final boolean more, final long nowMillis)
    {
        PartialBatch pending = partialBatches.get(origin);
        if (more)
        {
            if (pending == null)
            {
                pending = new PartialBatch();
                partialBatches.put(origin, pending);
            }
            pending.definitions.addAll(part);
            pending.lastPart = seq;
            return;
        }
        expectCampaigns((pending == null ? 0 : pending.definitions.size()) + part.size());
        if (pending != null)
        {
            partialBatches.remove(origin);
            applyAll(pending.definitions, nowMillis);
        }
        applyAll(part, nowMillis);
    }

    /**
     * A capacity hint before a batch of {@code definitions} is applied: each shard makes room for
     * its share at once instead of growing its table step by step ({@link PacingShard#expectCampaigns}).
     * It helps a bulk PUT, which is one batch however large; a campaigns file's change reaches the
     * cluster as batches of 10,000 that do not say how large the whole change is (the ingress
     * message has no field for it), so a million-campaign file still grows the tables step by step.
     */
    private void expectCampaigns(final int definitions)
    {
        for (int i = 0, size = shards.size(); i < size; i++)
        {
            shards.get(i).expectCampaigns(definitions / size);
        }
    }

    /**
     * A batch's next part is the origin's very next batch and starts with it; anything else means
     * the node stopped mid-batch (a crash: its next life numbers its batches higher), and the
     * parts that came are dropped, never applied with a later batch.
     */
    private void dropAbandonedPart(final int origin, final long seq, final int count)
    {
        final PartialBatch pending = partialBatches.get(origin);
        if (pending != null && (seq != pending.lastPart + 1 || count == 0 || TYPES[types[0]] != EventType.CAMPAIGN_BATCH))
        {
            partialBatches.remove(origin);
            abandonedParts++;
        }
    }

    /** Campaign batches whose node stopped sending them midway, dropped whole. */
    public long abandonedParts()
    {
        return abandonedParts;
    }

    private void applyAll(final List<CampaignDefinition> batch, final long nowMillis)
    {
        for (int i = 0, size = batch.size(); i < size; i++)
        {
            define(batch.get(i), nowMillis);
        }
    }

    private void define(final CampaignDefinition definition, final long nowMillis)
    {
        PacingStep.apply(shardOf(definition.id()), EventType.CAMPAIGN_UPDATE, 0, definition.id(), PacerEvent.NO_PRICE,
            Units.epochMillis(nowMillis), definition);
        recorder.define(records++, nowMillis, definition);
    }

    /**
     * Before event {@code from} of the batch's {@code count} is applied: notes what its bids and
     * notices from there, {@link PacingShard#NOTED} events in all, will look up, each in its own
     * shard, then touches it, so that their cache misses overlap instead of each event waiting on
     * its own (as a single node's pipeline and a replay do; see {@link PacingShard#touchNoted}).
     * Changes nothing.
     */
    private void touchAhead(final int from, final int count)
    {
        final int to = Math.min(count, from + PacingShard.NOTED);
        for (int i = from; i < to; i++)
        {
            final EventType type = TYPES[types[i]];
            if (type.fromGateway())
            {
                shardOf(campaignIds[i]).note(requestIds[i], campaignIds[i], type != EventType.BID_REQUEST);
            }
        }
        for (int s = 0, n = shards.size(); s < n; s++)
        {
            touched += shards.get(s).touchNoted();
        }
    }

    private int readEvents(final IngressBatchDecoder batch)
    {
        final IngressBatchDecoder.EventsDecoder events = batch.events();
        final int count = events.count();
        if (types.length < count)
        {
            grow(count);
        }
        int i = 0;
        for (final IngressBatchDecoder.EventsDecoder event : events)
        {
            final short type = event.type();
            if (type < 0 || type >= TYPES.length)
            {
                throw new IllegalArgumentException("unknown event type " + type);
            }
            types[i] = (byte)type;
            requestIds[i] = event.requestId();
            campaignIds[i] = event.campaignId();
            prices[i] = event.cpmMicros();
            definitionCounts[i] = event.definitions();
            i++;
        }
        return count;
    }

    private void readDefinitions(final IngressBatchDecoder batch)
    {
        definitions.clear();
        for (final IngressBatchDecoder.DefinitionsDecoder definition : batch.definitions())
        {
            definition.wrapDefinition(definitionBytes);
            definitionInput.wrap(definitionBytes, 0, definitionBytes.capacity());
            try
            {
                definitions.add(CampaignDefinition.read(definitionInput));
            }
            catch (final IOException ex)
            {
                throw new UncheckedIOException(ex);
            }
        }
    }

    private void grow(final int count)
    {
        final int size = Integer.highestOneBit(count - 1) << 1;
        types = new byte[size];
        requestIds = new long[size];
        campaignIds = new long[size];
        prices = new long[size];
        definitionCounts = new int[size];
    }

    /** Time passes, at {@code nowMillis} (a cluster timer's timestamp): every shard expires what is due. */
    public void tick(final long nowMillis)
    {
        for (int i = 0, size = shards.size(); i < size; i++)
        {
            PacingStep.apply(shards.get(i), EventType.TICK, 0, 0, PacerEvent.NO_PRICE, Units.epochMillis(nowMillis), null);
        }
        recorder.tick(records++, nowMillis);
        recorder.endOfBatch();
        publishCounters();
    }

    private void publishCounters()
    {
        for (int i = 0, size = shards.size(); i < size; i++)
        {
            shards.get(i).counters().publish();
        }
    }

    private PacingShard shardOf(final long campaignId)
    {
        return shards.get(router.shardOf(campaignId));
    }

    /** The highest batch of {@code origin} decided so far (0: none). */
    public long lastSeq(final int origin)
    {
        final AnswerWindow window = windows.get(origin);
        return window == null ? 0 : window.lastSeq();
    }

    /** Completes an admin read or write's result from the shards, without changing them. */
    public void answer(final AdminCommand command)
    {
        ShardReads.answer(command, shards, router);
    }

    /** The tick timer's deadline, 0 before the first is scheduled; part of the state. */
    public long timerDeadline()
    {
        return timerDeadline;
    }

    public void timerDeadline(final long deadline)
    {
        this.timerDeadline = deadline;
    }

    /** The shards, for metrics (their counters) and tests. */
    public List<PacingShard> shards()
    {
        return shards;
    }

    /** Writes the whole state, for a cluster snapshot. */
    public void writeTo(final DataOutput out) throws IOException
    {
        out.writeInt(shards.size());
        out.writeLong(policy.reservationTtlMillis());
        out.writeLong(policy.replanIntervalMillis());
        out.writeLong(policy.noticeDedupeWindowMillis());
        out.writeLong(timerDeadline);
        out.writeLong(records);
        out.writeLong(abandonedParts);
        for (int i = 0; i < shards.size(); i++)
        {
            shards.get(i).snapshotTo(out);
        }
        final int[] origins = sortedKeys(windows);
        out.writeInt(origins.length);
        for (final int origin : origins)
        {
            out.writeInt(origin);
            windows.get(origin).writeTo(out);
        }
        final int[] partial = sortedKeys(partialBatches);
        out.writeInt(partial.length);
        for (final int origin : partial)
        {
            final PartialBatch pending = partialBatches.get(origin);
            out.writeInt(origin);
            out.writeLong(pending.lastPart);
            out.writeInt(pending.definitions.size());
            for (final CampaignDefinition definition : pending.definitions)
            {
                definition.write(out);
            }
        }
    }

    /** Reads what {@link #writeTo} wrote, replacing this state. */
    public void readFrom(final DataInput in) throws IOException
    {
        final int shardCount = in.readInt();
        if (shardCount != shards.size())
        {
            throw new IllegalStateException("the snapshot has " + shardCount + " shards; pacer.pipeline.shards is " +
                shards.size() + " (it must not change while a cluster's log lives)");
        }
        final long ttl = in.readLong();
        final long replan = in.readLong();
        final long dedupe = in.readLong();
        if (ttl != policy.reservationTtlMillis() || replan != policy.replanIntervalMillis() ||
            dedupe != policy.noticeDedupeWindowMillis())
        {
            throw new IllegalStateException("the snapshot was taken with reservation-ttl " + ttl + " ms, replan-interval " +
                replan + " ms, notice-dedupe-window " + dedupe + " ms; this member has " + policy +
                ": pacer.pacing.* must be the same on every member");
        }
        timerDeadline = in.readLong();
        records = in.readLong();
        abandonedParts = in.readLong();
        for (int i = 0; i < shardCount; i++)
        {
            shards.get(i).restoreFrom(in);
        }
        windows.clear();
        for (int i = 0, n = in.readInt(); i < n; i++)
        {
            final AnswerWindow window = new AnswerWindow();
            final int origin = in.readInt();
            window.readFrom(in);
            windows.put(origin, window);
        }
        partialBatches.clear();
        for (int i = 0, n = in.readInt(); i < n; i++)
        {
            final int origin = in.readInt();
            final PartialBatch pending = new PartialBatch();
            pending.lastPart = in.readLong();
            for (int j = 0, size = in.readInt(); j < size; j++)
            {
                pending.definitions.add(CampaignDefinition.read(in));
            }
            partialBatches.put(origin, pending);
        }
        publishCounters();
    }

    private static int[] sortedKeys(final Int2ObjectHashMap<?> map)
    {
        final int[] keys = new int[map.size()];
        int i = 0;
        for (final Int2ObjectHashMap<?>.KeyIterator it = map.keySet().iterator(); it.hasNext(); )
        {
            keys[i++] = it.nextInt();
        }
        java.util.Arrays.sort(keys);
        return keys;
    }
}
