package io.pacer.bench;

import io.pacer.model.CampaignDefinition;
import io.pacer.model.CampaignStatus;
import io.pacer.model.PacingMode;
import io.pacer.model.PacingPolicy;
import io.pacer.pipeline.AdminCommand;
import io.pacer.pipeline.DrainLoop;
import io.pacer.pipeline.ThreadingMode;
import io.pacer.pipeline.journal.Journaler;
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
import org.openjdk.jmh.annotations.OperationsPerInvocation;
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
 * The in-process pipeline, ring to shards to replier to answers, in bid requests per second, each
 * followed by a loss notice (so 2 events per operation, the mix of the closed-loop load). Answers
 * go to a responder that only counts them.
 * <ul>
 *   <li>{@code shared}: the benchmark thread is the drain loop, as a gateway event loop is: it
 *       publishes {@value #READ} bids (one read's worth), then drains them itself.</li>
 *   <li>{@code dedicated}: the benchmark thread only publishes, as fast as the ring takes them
 *       (spinning while it is full); the shard and replier threads consume.</li>
 * </ul>
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
@Fork(value = 1, jvmArgsPrepend = "--add-opens=java.base/jdk.internal.misc=ALL-UNNAMED")
public class PipelineBenchmark
{
    @Param({"1", "2"})
    public int shards;

    @Param({"phased"})
    public String waitStrategy;

    @Param({"shared", "dedicated"})
    public String threading;

    static final int READ = 64;

    private final CallerDrainLoop loop = new CallerDrainLoop();
    private PacerPipeline pipeline;
    private boolean shared;
    private final CountingResponder responder = new CountingResponder();
    private long requestId;
    private long epochMillis;
    private long ingressNanos;

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
        final ThreadingMode mode = ThreadingMode.fromName(threading);
        shared = mode == ThreadingMode.SHARED;
        loop.owner = Thread.currentThread();
        pipeline = new PacerPipeline(new PipelineConfig(shards, 1 << 16, waitStrategy, 3_600_000, PacingPolicy.DEFAULT, 0,
            mode), SystemEpochClock.INSTANCE, Replier.DecisionListener.NONE, Journaler.NONE, loop);
        pipeline.start();
        final Instant start = Instant.now().minusSeconds(60);
        for (long id = 0; id < 1_000; id++)
        {
            final AdminCommand defined = pipeline.submit(AdminCommand.update(new CampaignDefinition(id,
                Long.MAX_VALUE / 2_000, 0, start, start.plusSeconds(86_400L * 365), ZoneId.of("UTC"), 0,
                PacingMode.ASAP, CampaignStatus.ACTIVE), shards));
            if (shared)
            {
                pipeline.drain();
            }
            defined.get(10, TimeUnit.SECONDS);
        }
    }

    /** The benchmark thread as the drain loop: it drains when it chooses; no ticks. */
    static final class CallerDrainLoop implements DrainLoop
    {
        volatile Thread owner;

        @Override
        public boolean inLoop()
        {
            return Thread.currentThread() == owner;
        }

        @Override
        public void execute(final Runnable task)
        {
            // wake-ups are not needed: the benchmark thread drains after every read's worth
        }

        @Override
        public AutoCloseable scheduleAtFixedRate(final Runnable task, final long periodMillis)
        {
            return () -> {};
        }
    }

    @TearDown(Level.Trial)
    public void tearDown()
    {
        if (shared)
        {
            // the caller's loop cannot be asked to drain from another thread: drain, then leave it
            loop.owner = Thread.currentThread();
            pipeline.drain();
        }
        else
        {
            pipeline.close();
        }
    }

    @Benchmark
    @OperationsPerInvocation(READ)
    public void bidRequests()
    {
        // one read's worth, stamped once, as a gateway connection stamps its reads
        epochMillis = SystemEpochClock.INSTANCE.time();
        ingressNanos = System.nanoTime();
        for (int i = 0; i < READ; i++)
        {
            bidRequest();
        }
        if (shared)
        {
            loop.owner = Thread.currentThread();
            pipeline.drain();
        }
    }

    private void bidRequest()
    {
        final long id = ++requestId;
        while (!pipeline.tryPublishBid(id, id % 1_000, 1_000, responder, epochMillis, ingressNanos))
        {
            Thread.onSpinWait();
        }
        // every BID gets its notice, as from an exchange: the previous bid's loss, so that
        // reservations neither pile up (they would for the 30 s TTL) nor settle at once
        while (id > 1 && !pipeline.tryPublishNotice(false, id - 1, (id - 1) % 1_000, 0, epochMillis, ingressNanos))
        {
            Thread.onSpinWait();
        }
    }
}
