package io.pacer.server;

import io.pacer.wire.FrameEncoder;
import io.pacer.server.gateway.ConnectionEvent;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.io.OutputStream;
import java.net.Socket;
import java.util.Arrays;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

import static io.pacer.server.TestPacer.asap;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * A gateway that sends bids and never reads its answers, beside a well-behaved one: the server
 * stops reading the slow one once its unwritten answers pass the high-water mark, so what it
 * holds for it stays under the limit however much it sends; after the slow-reader timeout it is
 * closed and counted; and the other gateway's p99 stays within twice its own baseline plus
 * 10 ms (the stated margin: this 2-core host is shared with the slow client's thread).
 */
class SlowReaderIntegrationTest
{
    private static final int HIGH_WATER = 64 * 1024;
    private static final int LIMIT = 1024 * 1024;

    @Test
    void shouldBoundWhatASlowReaderCostsAndCloseItWithoutSlowingOthers() throws Exception
    {
        try (TestPacer pacer = TestPacer.start(Map.of(
                "pacer.gateway.write-high-water-mark", HIGH_WATER,
                "pacer.gateway.max-unwritten-bytes", LIMIT,
                "pacer.gateway.slow-reader-timeout", "3s"),
            asap(1, 1_000_000_000_000L));
             GatewayClient clean = pacer.client())
        {
            final long baselineP99 = p99OfAsks(clean, 0, 2_000);

            final AtomicLong bytesSent = new AtomicLong();
            final Socket slow = new Socket();
            slow.setReceiveBufferSize(4096);
            slow.connect(pacer.server.gatewayAddress(), 5_000);
            final Thread writer = new Thread(() -> floodWithoutReading(slow, bytesSent), "slow-reader");
            writer.start();

            long maxUnwritten = 0;
            final long during = p99OfAsks(clean, 10_000, 2_000);
            final long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
            while (pacer.server.gatewayStats().total(ConnectionEvent.SLOW_READER_CLOSED) == 0 && System.nanoTime() < deadline)
            {
                maxUnwritten = Math.max(maxUnwritten, pacer.server.gatewayUnwrittenBytes());
                Thread.sleep(5);
            }
            writer.join(10_000);
            slow.close();

            System.out.printf("slow reader: sent %d bytes, server held at most %d unwritten; clean p99 %d us alone, %d us beside it%n",
                bytesSent.get(), maxUnwritten, baselineP99 / 1000, during / 1000);
            assertThat(pacer.server.gatewayStats().total(ConnectionEvent.SLOW_READER_PAUSED)).as("stopped reading it").isPositive();
            assertThat(pacer.server.gatewayStats().total(ConnectionEvent.SLOW_READER_CLOSED)).as("closed after the timeout").isEqualTo(1);
            assertThat(maxUnwritten).isLessThanOrEqualTo(LIMIT);
            // 38-byte requests become 30-byte answers: it sent far more than the server kept for it
            assertThat(bytesSent.get() * 30 / 38).isGreaterThan(4L * LIMIT);
            assertThat(during).as("clean p99 beside the slow reader").isLessThanOrEqualTo(2 * baselineP99 + 10_000_000);
            assertThat(clean.ask(99_999, 1, 1_000)).isEqualTo("BID 99999");
        }
    }

    @Test
    void shouldCloseAConnectionWhoseUnwrittenAnswersPassTheLimit() throws Exception
    {
        // a high-water mark and limit so small that one read's worth of answers passes both
        try (TestPacer pacer = TestPacer.start(Map.of(
                "pacer.gateway.write-high-water-mark", "4KiB",
                "pacer.gateway.max-unwritten-bytes", "8KiB",
                "pacer.gateway.slow-reader-timeout", "0s"),
            asap(1, 1_000_000_000_000L)))
        {
            final AtomicLong bytesSent = new AtomicLong();
            try (Socket slow = new Socket())
            {
                slow.setReceiveBufferSize(4096);
                slow.connect(pacer.server.gatewayAddress(), 5_000);
                floodWithoutReading(slow, bytesSent);
            }
            assertThat(pacer.server.gatewayStats().total(ConnectionEvent.SLOW_READER_CLOSED)).isEqualTo(1);
            try (GatewayClient client = pacer.client())
            {
                // what the slow reader sent before it was closed may still fill the ring for a moment
                String answer = client.ask(1, 1, 1_000);
                for (long id = 2; answer.endsWith("OVERLOADED") && id < 1_000; id++)
                {
                    Thread.sleep(10);
                    answer = client.ask(id, 1, 1_000);
                }
                assertThat(answer).startsWith("BID ");
            }
        }
    }

    /** Sends bids until the server closes the connection (the write fails) or 20 s pass. */
    private static void floodWithoutReading(final Socket socket, final AtomicLong bytesSent)
    {
        final FrameEncoder encoder = new FrameEncoder();
        final UnsafeBuffer buffer = new UnsafeBuffer(new byte[FrameEncoder.BID_REQUEST_LENGTH * 1024]);
        final long end = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
        long requestId = 1_000_000;
        try
        {
            final OutputStream out = socket.getOutputStream();
            while (System.nanoTime() < end)
            {
                int length = 0;
                for (int i = 0; i < 1024; i++)
                {
                    length += encoder.bidRequest(buffer, length, requestId++, 1, 1_000);
                }
                out.write(buffer.byteArray(), 0, length);
                bytesSent.addAndGet(length);
            }
        }
        catch (final IOException closedByServer)
        {
            // expected: the server gave up on it
        }
    }

    private static long p99OfAsks(final GatewayClient client, final long firstId, final int count) throws IOException
    {
        final long[] nanos = new long[count];
        for (int i = 0; i < count; i++)
        {
            final long start = System.nanoTime();
            // until the slow one stops being read, its flood may fill the ring: OVERLOADED is fair
            assertThat(client.ask(firstId + i, 1, 1_000))
                .isIn("BID " + (firstId + i), "NO_BID " + (firstId + i) + " OVERLOADED");
            nanos[i] = System.nanoTime() - start;
        }
        Arrays.sort(nanos);
        return nanos[(int)(count * 0.99) - 1];
    }
}
