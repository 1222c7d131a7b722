package io.pacer.bench;

import io.pacer.model.CampaignDefinition;
import io.pacer.model.CampaignStatus;
import io.pacer.model.PacingMode;
import io.pacer.model.PacingPolicy;
import io.pacer.model.PacingShard;
import io.pacer.wire.Reason;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OperationsPerInvocation;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;
import org.openjdk.jmh.infra.Blackhole;

import java.time.Instant;
import java.time.ZoneId;
import java.util.concurrent.TimeUnit;

/**
 * Cost of one pacing decision on the shard's thread: a bid on a campaign drawn at random (seeded)
 * from 1,000 or 1,000,000, then its loss notice (so reservations do not pile up), with time
 * advancing a millisecond per bid. With a million campaigns nearly every bid's campaign is a cache
 * miss; the ratio of the two sizes is what the campaign book's layout costs (#14).
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(value = 1, jvmArgsPrepend = "--add-opens=java.base/jdk.internal.misc=ALL-UNNAMED")
public class PacingDecisionBenchmark
{
    @Param({"EVEN", "ASAP"})
    public PacingMode pacing;

    @Param({"1000", "1000000"})
    public int campaigns;

    private PacingShard shard;
    private long requestId;
    private long nowMillis;
    private long random = 0x9E3779B97F4A7C15L;
    private static final int BATCH = 16;
    private final long[] batchCampaigns = new long[BATCH];

    @Setup(Level.Trial)
    public void setUp()
    {
        final Instant start = Instant.parse("2026-01-01T00:00:00Z");
        shard = new PacingShard(new PacingPolicy(30_000, 1_000), 1 << 16);
        for (long id = 0; id < campaigns; id++)
        {
            shard.define(new CampaignDefinition(id, Long.MAX_VALUE / 2_000, 0, start, start.plusSeconds(86_400L * 365 * 100),
                ZoneId.of("UTC"), 0, pacing, CampaignStatus.ACTIVE), start.toEpochMilli());
        }
        nowMillis = start.toEpochMilli() + 1_000;
    }

    @Benchmark
    public Reason bidThenLoss()
    {
        final long id = ++requestId;
        final long campaign = nextCampaign();
        nowMillis++;
        final Reason reason = shard.bid(id, campaign, 1_000_000, nowMillis);
        shard.loss(id, campaign, nowMillis);
        return reason;
    }

    /** A batch of {@value #BATCH} bids, each then lost, as {@link #bidThenLoss}; time per bid. */
    @Benchmark
    @OperationsPerInvocation(BATCH)
    public int batch()
    {
        drawBatch();
        return decideBatch();
    }

    /**
     * {@link #batch}, with what the batch will look up noted and touched first ({@code
     * PacingShard.note}, {@code touchNoted}), as the pipeline does before it applies a batch: each
     * bid's book and each loss's place in the dedupe window, in loops of a load each.
     */
    @Benchmark
    @OperationsPerInvocation(BATCH)
    public int batchNotedFirst(final Blackhole blackhole)
    {
        drawBatch();
        long id = requestId;
        for (final long campaign : batchCampaigns)
        {
            id++;
            shard.note(id, campaign, false);
            shard.note(id, campaign, true);
        }
        blackhole.consume(shard.touchNoted());
        return decideBatch();
    }

    private void drawBatch()
    {
        for (int i = 0; i < BATCH; i++)
        {
            batchCampaigns[i] = nextCampaign();
        }
    }

    private int decideBatch()
    {
        int bids = 0;
        for (final long campaign : batchCampaigns)
        {
            final long id = ++requestId;
            nowMillis++;
            if (shard.bid(id, campaign, 1_000_000, nowMillis) == Reason.NONE)
            {
                bids++;
            }
            shard.loss(id, campaign, nowMillis);
        }
        return bids;
    }

    private long nextCampaign()
    {
        random ^= random << 13;
        random ^= random >>> 7;
        random ^= random << 17;
        return (random >>> 1) % campaigns;
    }
}
