package io.pacer.server.gateway;

import io.pacer.server.config.GatewayConfig;
import io.pacer.server.config.GatewayPermissions;
import io.pacer.server.config.SourceAllowlist;
import io.pacer.server.config.TlsFiles;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.embedded.EmbeddedChannel;
import io.netty.handler.timeout.IdleStateEvent;
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
    private static final Duration SLOW_READER_TIMEOUT = Duration.ofSeconds(10);
    private static final GatewayConfig SETTINGS = new GatewayConfig("127.0.0.1", 0, 1, 4096, 16, Duration.ZERO, 256 * 1024,
        4 << 20, SLOW_READER_TIMEOUT, TlsFiles.none("pacer.gateway"), SourceAllowlist.everyone("pacer.gateway.allow"),
        GatewayPermissions.none());

    private final ManualDrainLoop loop = new ManualDrainLoop();
    private final CachedEpochClock clock = new CachedEpochClock();
    private final FrameEncoder encoder = new FrameEncoder();
    private final UnsafeBuffer frame = new UnsafeBuffer(new byte[128]);
    private final GatewayStats stats = new GatewayStats();
    private PacerPipeline pipeline;
    private GatewayConnection connection;
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
        connection = new GatewayConnection(pipeline, stats, SETTINGS);
        channel = new EmbeddedChannel(connection);
        channel.freezeTime();
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
    void shouldReadNothingAfterAFrameThatLosesFraming()
    {
        final byte[] garbage = {0, 0, 0, 8, 1, 2, 3, 4};
        channel.writeInbound(bytes(garbage));
        assertThat(connection.state()).isEqualTo(ConnectionState.FRAMING_LOST);
        assertThat(channel.config().isAutoRead()).isFalse();

        channel.writeInbound(bytes(bid(2, 2_000)));
        loop.runPending();
        channel.runPendingTasks();

        assertThat(answers()).containsExactly("ERROR " + ErrorCode.MALFORMED_FRAME);
        assertThat(stats.total(GatewayStats.BID_REQUESTS)).as("the bid behind the bad frame").isZero();
    }

    @Test
    void shouldCloseAnIdleConnectionOnlyAfterAnsweringWhatItSent()
    {
        channel.writeInbound(bytes(bid(1, 2_000), bid(2, 2_000)));
        channel.pipeline().fireUserEventTriggered(IdleStateEvent.FIRST_READER_IDLE_STATE_EVENT);
        assertThat(connection.state()).isEqualTo(ConnectionState.CLOSING);
        assertThat(channel.isOpen()).as("its end of stream is still in the ring").isTrue();

        loop.runPending();
        channel.runPendingTasks();

        assertThat(answers()).containsExactly("BID 1", "BID 2");
        assertThat(channel.isOpen()).isFalse();
        assertThat(stats.total(ConnectionEvent.IDLE_CLOSED)).isEqualTo(1);
    }

    @Test
    void shouldNotCallAConnectionIdleWhileItIsNotBeingRead()
    {
        unwritable(true);
        channel.pipeline().fireUserEventTriggered(IdleStateEvent.FIRST_READER_IDLE_STATE_EVENT);

        assertThat(connection.state()).isEqualTo(ConnectionState.OPEN);
        assertThat(stats.total(ConnectionEvent.IDLE_CLOSED)).isZero();
    }

    @Test
    void shouldStopReadingASlowReaderAndResumeOnceItDrains()
    {
        unwritable(true);
        assertThat(channel.config().isAutoRead()).isFalse();
        assertThat(stats.total(ConnectionEvent.SLOW_READER_PAUSED)).isEqualTo(1);

        unwritable(false);
        assertThat(channel.config().isAutoRead()).isTrue();
        channel.advanceTimeBy(SLOW_READER_TIMEOUT.toSeconds() + 1, TimeUnit.SECONDS);
        channel.runScheduledPendingTasks();
        assertThat(channel.isOpen()).as("it drained in time").isTrue();
    }

    @Test
    void shouldCloseASlowReaderThatStaysPastItsTimeout()
    {
        unwritable(true);
        channel.advanceTimeBy(SLOW_READER_TIMEOUT.toSeconds() - 1, TimeUnit.SECONDS);
        channel.runScheduledPendingTasks();
        assertThat(channel.isOpen()).isTrue();

        channel.advanceTimeBy(2, TimeUnit.SECONDS);
        channel.runScheduledPendingTasks();

        assertThat(channel.isOpen()).isFalse();
        assertThat(connection.state()).isEqualTo(ConnectionState.CLOSED);
        assertThat(stats.total(ConnectionEvent.SLOW_READER_CLOSED)).isEqualTo(1);
    }

    @Test
    void shouldHoldANoticeThatFindsTheRingFullAndBookItWithTheFramesBehindItOnceThereIsRoom() throws Exception
    {
        // published from outside the drain loop, so nothing drains the 64-slot ring while it fills
        loop.outside(true);
        final List<byte[]> frames = new ArrayList<>();
        for (int i = 0; i < 64; i++)
        {
            frames.add(bid(1_000 + i, 9_000));
        }
        frames.add(win(1_000, 9_000));
        frames.add(bid(2_000, 9_000));
        channel.writeInbound(bytes(frames.toArray(new byte[0][])));

        assertThat(stats.total(ConnectionEvent.RING_BACKPRESSURE)).isEqualTo(1);
        assertThat(channel.config().isAutoRead()).as("not read while a notice is held").isFalse();
        assertThat(stats.total(GatewayStats.BID_REQUESTS)).as("the bid behind the notice waits").isEqualTo(64);

        loop.outside(false);
        loop.runPending();
        channel.advanceTimeBy(1, TimeUnit.MILLISECONDS);
        channel.runScheduledPendingTasks();
        loop.runPending();

        assertThat(answers()).hasSize(65).endsWith("BID 2000");
        assertThat(channel.config().isAutoRead()).isTrue();
        final AdminCommand query = pipeline.submit(AdminCommand.query(42, 1));
        loop.runPending();
        assertThat(query.get(1, TimeUnit.SECONDS).get(0).spentNanos()).as("the held win, booked").isEqualTo(9_000);
    }

    @Test
    void shouldWriteEveryOwedAnswerBeforeAGracefulClose()
    {
        channel.writeInbound(bytes(bid(1, 2_000)));
        channel.pipeline().fireUserEventTriggered(GatewayConnection.STOP_INTAKE);
        assertThat(channel.config().isAutoRead()).isFalse();
        loop.runPending();

        channel.pipeline().fireUserEventTriggered(GatewayConnection.CLOSE_GRACEFULLY);
        channel.runPendingTasks();

        assertThat(answers()).containsExactly("BID 1");
        assertThat(channel.isOpen()).as("an embedded channel cannot half-close: it closes").isFalse();
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

    /** Marks the channel (un)writable as a full outbound buffer would, and runs the change through. */
    private void unwritable(final boolean unwritable)
    {
        channel.unsafe().outboundBuffer().setUserDefinedWritability(1, !unwritable);
        channel.runPendingTasks();
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
        private boolean outside;

        @Override
        public boolean inLoop()
        {
            return !outside && Thread.currentThread() == owner;
        }

        /** Whether publishers are to see themselves as outside the loop (it cannot drain for them). */
        void outside(final boolean outside)
        {
            this.outside = outside;
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
