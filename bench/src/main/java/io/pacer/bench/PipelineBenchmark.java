package io.pacer.bench;

import io.pacer.model.CampaignDefinition;
import io.pacer.model.CampaignStatus;
import io.pacer.model.PacingMode;
import io.pacer.model.PacingPolicy;
import io.pacer.pipeline.AdminCommand;
import io.pacer.pipeline.PacerPipeline;
import io.pacer.pipeline.PipelineConfig;
import io.pacer.pipeline.Replier;
import io.pacer.pipeline.Responder;
import io.pacer.wire.Reason;
import org.agrona.concurrent.SystemEpochClock;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

import java.time.Instant;
import java.time.ZoneId;
import java.util.concurrent.TimeUnit;

/**
 * The in-process pipeline, ring to shards to replier to answers, in bid requests per second: one
 * producer thread publishes as fast as the ring takes them (spinning while it is full), so the
 * figure is the pipeline's capacity. Answers go to a responder that only counts them.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
@Fork(value = 1, jvmArgsAppend = "--add-opens=java.base/jdk.internal.misc=ALL-UNNAMED")
public class PipelineBenchmark
{
    @Param({"1", "2"})
    public int shards;

    @Param({"phased"})
    public String waitStrategy;

    private PacerPipeline pipeline;
    private final CountingResponder responder = new CountingResponder();
    private long requestId;

    /** Counts answers; nothing else. */
    static final class CountingResponder implements Responder
    {
        long answers;

        @Override
        public void withdrawBids()
        {
            // benchmarks run without a journal
        }

        @Override
        public boolean append(final long requestId, final Reason reason)
        {
            answers++;
            return false;
        }

        @Override
        public void flush()
        {
        }

        @Override
        public void endOfStream()
        {
        }
    }

    @Setup(Level.Trial)
    public void setUp() throws Exception
    {
        pipeline = new PacerPipeline(new PipelineConfig(shards, 1 << 16, waitStrategy, 100, PacingPolicy.DEFAULT),
            SystemEpochClock.INSTANCE, Replier.DecisionListener.NONE);
        pipeline.start();
        final Instant start = Instant.now().minusSeconds(60);
        for (long id = 0; id < 1_000; id++)
        {
            pipeline.submit(AdminCommand.update(new CampaignDefinition(id, Long.MAX_VALUE / 2_000, 0, start,
                start.plusSeconds(86_400L * 365), ZoneId.of("UTC"), 0, PacingMode.ASAP, CampaignStatus.ACTIVE), shards))
                .get(10, TimeUnit.SECONDS);
        }
    }

    @TearDown(Level.Trial)
    public void tearDown()
    {
        pipeline.close();
    }

    @Benchmark
    public void bidRequest()
    {
        final long id = ++requestId;
        while (!pipeline.tryPublishBid(id, id % 1_000, 1_000, responder))
        {
            Thread.onSpinWait();
        }
        if ((id & 3) == 0)
        {
            // a loss for an earlier bid keeps reservations from piling up (1 notice per 4 bids)
            pipeline.publishNotice(false, id - 3, (id - 3) % 1_000, 0);
        }
    }
}
