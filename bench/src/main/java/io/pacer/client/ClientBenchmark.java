package io.pacer.client;

import io.pacer.wire.FrameEncoder;
import io.pacer.wire.FrameParser;
import io.pacer.wire.Reason;
import org.agrona.concurrent.UnsafeBuffer;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OperationsPerInvocation;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;
import org.openjdk.jmh.infra.Blackhole;

import java.net.InetAddress;
import java.net.ServerSocket;
import java.time.Duration;
import java.util.concurrent.TimeUnit;

/**
 * The client library's own cost per bid, without the network: what {@link PacerClient#bid(long,
 * long, long)} does on the caller's thread (request id, queue), what the event loop does with it
 * (drain, encode, track), the answer's way back (parse, match, acknowledge notices, call the
 * handler) and the deadline sweep. One operation is one bid; a batch of {@value #BATCH} is drained at once, as a read's
 * worth would be. Run with {@code -prof gc}: the callback API allocates nothing per bid.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
@Fork(value = 1, jvmArgsPrepend = "--add-opens=java.base/jdk.internal.misc=ALL-UNNAMED")
public class ClientBenchmark
{
    static final int BATCH = 64;

    private PacerClient client;
    private ClientSession session;
    private final long[] requestIds = new long[BATCH];
    private final UnsafeBuffer answers = new UnsafeBuffer(new byte[BATCH * FrameEncoder.BID_RESPONSE_LENGTH]);
    private final FrameEncoder encoder = new FrameEncoder();
    private final FrameParser parser = new FrameParser(1 << 16);
    private Blackhole blackhole;
    private ServerSocket silentNode;

    @Setup(Level.Trial)
    public void setUp(final Blackhole bh) throws Exception
    {
        blackhole = bh;
        // a client connected to a node that accepts and never answers (so it makes no reconnect
        // attempts that would allocate); the session under test is driven by hand, as its event
        // loop would drive it
        silentNode = new ServerSocket(0, 1, InetAddress.getLoopbackAddress());
        final PacerClient.Context context = new PacerClient.Context().node("127.0.0.1", silentNode.getLocalPort()).clientId(1)
            .reconnectBackoff(Duration.ofSeconds(1), Duration.ofSeconds(1)).closeTimeout(Duration.ZERO)
            .answerHandler((correlationId, requestId, campaignId, bid, reason) -> blackhole.consume(correlationId));
        client = PacerClient.connect(context);
        session = new ClientSession(client, new NodeLink(context.nodes().get(0)), context);
        session.connected(true);
    }

    @TearDown(Level.Trial)
    public void tearDown() throws Exception
    {
        client.close();
        silentNode.close();
    }

    /** Bids only, each answered BID. */
    @Benchmark
    @OperationsPerInvocation(BATCH)
    public void bidAndAnswer()
    {
        round(false);
    }

    /** Each bid answered BID and followed by its win notice, acknowledged by the next batch's answers. */
    @Benchmark
    @OperationsPerInvocation(BATCH)
    public void bidAnswerAndWinNotice()
    {
        round(true);
    }

    private void round(final boolean notices)
    {
        final long now = System.nanoTime();
        for (int i = 0; i < BATCH; i++)
        {
            final long requestId = client.nextRequestId();
            requestIds[i] = requestId;
            session.admit();
            session.offer(ClientSession.BID, requestId, 42, 1_000_000, i, now);
        }
        session.drain(now);
        int length = 0;
        for (int i = 0; i < BATCH; i++)
        {
            length += encoder.bidResponse(answers, length, requestIds[i], Reason.NONE);
        }
        session.clock(now);
        parser.parse(answers, 0, length, session);
        if (notices)
        {
            for (int i = 0; i < BATCH; i++)
            {
                session.offer(ClientSession.WIN, requestIds[i], 42, 500_000, 0, 0);
            }
            session.drain(now);
        }
        session.sweep(now);
        blackhole.consume(session.outLength());
        session.clearOut();
    }
}
