package io.pacer.server.gateway;

import io.pacer.server.config.GatewayConfig;
import io.pacer.server.config.TlsFiles;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.embedded.EmbeddedChannel;
import io.pacer.model.CampaignDefinition;
import io.pacer.model.CampaignSnapshot;
import io.pacer.model.CampaignStatus;
import io.pacer.model.PacingMode;
import io.pacer.model.PacingPolicy;
import io.pacer.wire.FrameEncoder;
import io.pacer.wire.FrameListener;
import io.pacer.wire.FrameParser;
import io.pacer.pipeline.AdminCommand;
import io.pacer.pipeline.DrainLoop;
import io.pacer.pipeline.PacerPipeline;
import io.pacer.pipeline.PipelineConfig;
import io.pacer.pipeline.Replier;
import io.pacer.pipeline.ThreadingMode;
import io.pacer.pipeline.journal.Journaler;
import io.pacer.wire.ErrorCode;
import org.agrona.concurrent.CachedEpochClock;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.Queue;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * One gateway connection on Netty's {@link EmbeddedChannel}, with a shared pipeline whose drain
 * loop is the test thread: bytes in, answers out, every step run here, deterministically.
 */
class GatewayConnectionTest
{
    private static final Instant T0 = Instant.parse("2026-12-02T00:00:00Z");
    private static final GatewayConfig SETTINGS = new GatewayConfig("127.0.0.1", 0, 1, 4096, 16, Duration.ZERO, 256 * 1024,
        4 << 20, Duration.ofSeconds(10), TlsFiles.none("pacer.gateway"));

    private final ManualDrainLoop loop = new ManualDrainLoop();
    private final CachedEpochClock clock = new CachedEpochClock();
    private final FrameEncoder encoder = new FrameEncoder();
    private final UnsafeBuffer frame = new UnsafeBuffer(new byte[128]);
    private final GatewayStats stats = new GatewayStats();
    private PacerPipeline pipeline;
    private EmbeddedChannel channel;

    @BeforeEach
    void start() throws Exception
    {
        clock.update(T0.toEpochMilli() + 1_000);
        pipeline = new PacerPipeline(
            new PipelineConfig(1, 64, "blocking", 3_600_000, PacingPolicy.DEFAULT, 0, ThreadingMode.SHARED),
            clock, Replier.DecisionListener.NONE, Journaler.NONE, loop);
        pipeline.start();
        final AdminCommand defined = pipeline.submit(AdminCommand.update(new CampaignDefinition(42, 10_000, 0, T0,
            T0.plusSeconds(86_400), ZoneId.of("UTC"), 0, PacingMode.ASAP, CampaignStatus.ACTIVE), 1));
        loop.runPending();
        defined.get(1, TimeUnit.SECONDS);
        channel = new EmbeddedChannel(new GatewayConnection(pipeline, stats, SETTINGS));
    }

    @AfterEach
    void stop()
    {
        channel.finishAndReleaseAll();
    }

    @Test
    void shouldAnswerEveryBidOfOneReadInOneDrain()
    {
        channel.writeInbound(bytes(bid(1, 2_000), bid(2, 2_000), bid(3, 2_000)));
        assertThat(answers()).as("nothing decided before the loop's pass ends").isEmpty();

        loop.runPending();

        assertThat(answers()).containsExactly("BID 1", "BID 2", "BID 3");
    }

    @Test
    void shouldDecodeAFrameSplitAcrossReads()
    {
        final byte[] whole = bid(7, 2_000);
        channel.writeInbound(Unpooled.wrappedBuffer(whole, 0, 10));
        loop.runPending();
        assertThat(answers()).isEmpty();

        channel.writeInbound(Unpooled.wrappedBuffer(whole, 10, whole.length - 10));
        loop.runPending();

        assertThat(answers()).containsExactly("BID 7");
    }

    @Test
    void shouldBookANoticeReadWithItsBidsInRingOrder() throws Exception
    {
        // a 9,000 CPM micros impression costs 9 micros: reserved by the BID, then booked by its win
        channel.writeInbound(bytes(bid(1, 9_000), win(1, 9_000), bid(2, 9_000)));
        loop.runPending();
        assertThat(answers()).containsExactly("BID 1", "BID 2");

        final AdminCommand query = pipeline.submit(AdminCommand.query(42, 1));
        loop.runPending();
        final CampaignSnapshot state = query.get(1, TimeUnit.SECONDS).get(0);
        assertThat(state.spentNanos()).isEqualTo(9_000);
        assertThat(state.reservedNanos()).as("the second BID's reservation").isEqualTo(9_000);
        assertThat(stats.total(GatewayStats.WIN_NOTICES)).isEqualTo(1);
    }

    @Test
    void shouldAnswerWhatWasAcceptedThenReportAMalformedFrameAndClose()
    {
        final byte[] garbage = {0, 0, 0, 8, 1, 2, 3, 4};
        channel.writeInbound(bytes(bid(1, 2_000), garbage));
        loop.runPending();
        channel.runPendingTasks();

        assertThat(answers()).containsExactlyInAnyOrder("ERROR " + ErrorCode.MALFORMED_FRAME, "BID 1");
        assertThat(channel.isOpen()).as("closed once the owed answer went out").isFalse();
    }

    @Test
    void shouldDrainAFullRingOnTheLoopInsteadOfShedding()
    {
        // 64 slots; 200 bids in one read: the loop drains the ring whenever it fills
        final List<byte[]> bids = new ArrayList<>();
        for (int i = 0; i < 200; i++)
        {
            bids.add(bid(1_000 + i, 1));
        }
        channel.writeInbound(bytes(bids.toArray(new byte[0][])));
        loop.runPending();

        assertThat(answers()).hasSize(200).allMatch(a -> a.startsWith("BID "));
        assertThat(pipeline.ringFullDrains()).isPositive();
    }

    private byte[] bid(final long requestId, final long bidCpmMicros)
    {
        return copy(encoder.bidRequest(frame, 0, requestId, 42, bidCpmMicros));
    }

    private byte[] win(final long requestId, final long priceCpmMicros)
    {
        return copy(encoder.winNotice(frame, 0, requestId, 42, priceCpmMicros));
    }

    private byte[] copy(final int length)
    {
        final byte[] bytes = new byte[length];
        frame.getBytes(0, bytes);
        return bytes;
    }

    private static ByteBuf bytes(final byte[]... frames)
    {
        return Unpooled.wrappedBuffer(frames);
    }

    /** Every answer written so far, as "BID id", "NO_BID id REASON" or "ERROR CODE". */
    private List<String> answers()
    {
        final List<String> answers = new ArrayList<>();
        final FrameParser parser = new FrameParser(4096);
        final FrameListener listener = new FrameListener()
        {
            @Override
            public void onBidResponse(final long requestId, final short decision, final short reason)
            {
                answers.add(decision == 1 ? "BID " + requestId : "NO_BID " + requestId + " " + reason);
            }

            @Override
            public void onErrorMessage(final long requestId, final int code, final int templateId)
            {
                answers.add("ERROR " + ErrorCode.get(code));
            }

            @Override
            public void onInvalidFrame(final ErrorCode code, final long requestId, final int templateId)
            {
                answers.add("INVALID " + code);
            }
        };
        for (ByteBuf out; (out = channel.readOutbound()) != null; )
        {
            final byte[] bytes = new byte[out.readableBytes()];
            out.readBytes(bytes);
            out.release();
            parser.parse(new UnsafeBuffer(bytes), 0, bytes.length, listener);
        }
        return answers;
    }

    /** The test thread as the drain loop: tasks wait until the test runs them. */
    private static final class ManualDrainLoop implements DrainLoop
    {
        private final Thread owner = Thread.currentThread();
        private final Queue<Runnable> tasks = new ArrayDeque<>();

        @Override
        public boolean inLoop()
        {
            return Thread.currentThread() == owner;
        }

        @Override
        public void execute(final Runnable task)
        {
            tasks.add(task);
        }

        @Override
        public AutoCloseable scheduleAtFixedRate(final Runnable task, final long periodMillis)
        {
            return () -> {};
        }

        void runPending()
        {
            for (Runnable task; (task = tasks.poll()) != null; )
            {
                task.run();
            }
        }
    }
}
