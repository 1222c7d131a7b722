package io.pacer.cluster;

import io.pacer.cluster.sbe.IngressBatchDecoder;
import io.pacer.cluster.sbe.MessageHeaderDecoder;
import io.pacer.model.CampaignDefinition;
import io.pacer.model.CampaignStatus;
import io.pacer.model.PacingMode;
import io.pacer.model.PacingPolicy;
import io.pacer.pipeline.EventType;
import org.agrona.ExpandableArrayBuffer;
import org.agrona.concurrent.UnsafeBuffer;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OperationsPerInvocation;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

import java.io.ByteArrayOutputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.time.Instant;
import java.time.ZoneId;
import java.util.concurrent.TimeUnit;

/**
 * Cost of an event in cluster mode's service, without a cluster: {@link PacerState#decide} on
 * ingress batches as a node sends them, each of {@value #BIDS} bids on campaigns drawn at random
 * (seeded) from 1,000 or 1,000,000, then their loss notices (so reservations do not pile up), time
 * advancing a millisecond per batch. It includes encoding each batch, as the node does, and the
 * answer window's copy; not the log, its replication or the answers' sending. With a million
 * campaigns nearly every bid's campaign is a cache miss: the ratio of the two sizes is what the
 * service pays for them (#14). A loss comes in its bid's batch, its book and reservation still in
 * cache; a gateway's notices come later, in batches of their own, their books cold again, so a
 * live service's notices miss more than these.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(value = 1, jvmArgsPrepend = "--add-opens=java.base/jdk.internal.misc=ALL-UNNAMED")
public class ClusterStateBenchmark
{
    private static final int BIDS = 64;
    private static final int ORIGIN = 0;
    private static final int DEFINITIONS_PER_BATCH = 2_000;

    @Param({"1000", "1000000"})
    public int campaigns;

    private PacerState state;
    private final OutBatch batch = new OutBatch();
    private final MessageHeaderDecoder header = new MessageHeaderDecoder();
    private final IngressBatchDecoder decoder = new IngressBatchDecoder();
    private final ExpandableArrayBuffer reasons = new ExpandableArrayBuffer(4 * BIDS);
    private final long[] drawn = new long[BIDS];
    private long seq;
    private long requestId;
    private long nowMillis;
    private long random = 0x9E3779B97F4A7C15L;

    @Setup
    public void setUp()
    {
        final Instant start = Instant.parse("2026-01-01T00:00:00Z");
        nowMillis = start.toEpochMilli() + 1_000;
        state = new PacerState(1, new PacingPolicy(30_000, 1_000));
        for (long from = 0; from < campaigns; from += DEFINITIONS_PER_BATCH)
        {
            batch.reset(++seq);
            final int event = batch.add(EventType.CAMPAIGN_BATCH, 0, 0, 0, 0);
            for (long id = from; id < Math.min(campaigns, from + DEFINITIONS_PER_BATCH); id++)
            {
                final byte[] bytes = bytes(new CampaignDefinition(id, Long.MAX_VALUE / 2_000, 0, start,
                    start.plusSeconds(86_400L * 365 * 100), ZoneId.of("UTC"), 0, id % 2 == 1 ? PacingMode.EVEN : PacingMode.ASAP,
                    CampaignStatus.ACTIVE));
                batch.addDefinition(event, new UnsafeBuffer(bytes), bytes.length);
            }
            decide();
        }
    }

    /** A batch of {@value #BIDS} bids, then their {@value #BIDS} losses; time per event. */
    @Benchmark
    @OperationsPerInvocation(2 * BIDS)
    public int bidsThenLosses()
    {
        batch.reset(++seq);
        final long firstId = requestId + 1;
        for (int i = 0; i < BIDS; i++)
        {
            drawn[i] = nextCampaign();
            batch.add(EventType.BID_REQUEST, ++requestId, drawn[i], 1_000_000, 0);
        }
        for (int i = 0; i < BIDS; i++)
        {
            batch.add(EventType.LOSS_NOTICE, firstId + i, drawn[i], 0, 0);
        }
        nowMillis++;
        return decide();
    }

    private int decide()
    {
        batch.encode(ORIGIN);
        return state.decide(decoder.wrapAndApplyHeader(batch.message(), 0, header), nowMillis, reasons);
    }

    private static byte[] bytes(final CampaignDefinition definition)
    {
        final ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        try
        {
            definition.write(new DataOutputStream(bytes));
        }
        catch (final IOException ex)
        {
            throw new UncheckedIOException(ex);
        }
        return bytes.toByteArray();
    }

    private long nextCampaign()
    {
        random ^= random << 13;
        random ^= random >>> 7;
        random ^= random << 17;
        return (random >>> 1) % campaigns;
    }
}
