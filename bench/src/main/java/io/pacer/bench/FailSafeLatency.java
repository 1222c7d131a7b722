package io.pacer.bench;

import io.pacer.client.ClientReason;
import io.pacer.client.PacerClient;
import org.HdrHistogram.Histogram;

import java.io.IOException;
import java.io.InputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.time.Duration;
import java.util.Locale;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

/**
 * How long a gateway waits for its answer when the pacer stalls: the client library against a
 * node on loopback that accepts, reads every byte and never answers. Each bid is made at a
 * fixed rate with the callback API and must come back as a fail-safe NO_BID DEADLINE_EXCEEDED;
 * the time from the call to the callback is recorded, after one second of warm-up. Prints one JSON
 * object (microseconds).
 *
 * <pre>java -cp bench/target/benchmarks.jar io.pacer.bench.FailSafeLatency [RATE_PER_S] [SECONDS] [DEADLINE_MS]</pre>
 */
public final class FailSafeLatency
{
    private FailSafeLatency()
    {
    }

    public static void main(final String[] args) throws Exception
    {
        final int rate = args.length > 0 ? Integer.parseInt(args[0]) : 2_000;
        final int seconds = args.length > 1 ? Integer.parseInt(args[1]) : 10;
        final long deadlineMillis = args.length > 2 ? Long.parseLong(args[2]) : 5;
        final int count = rate * (seconds + 1);
        final long[] calledAt = new long[count];
        final Histogram latencyNanos = new Histogram(TimeUnit.SECONDS.toNanos(10), 3);
        final CountDownLatch done = new CountDownLatch(count);
        final long[] wrongAnswers = new long[1];

        try (ServerSocket stalled = new ServerSocket(0, 50, InetAddress.getLoopbackAddress()))
        {
            final Thread acceptor = new Thread(() -> swallow(stalled), "stalled-node");
            acceptor.setDaemon(true);
            acceptor.start();
            final PacerClient.Context context = new PacerClient.Context()
                .node("127.0.0.1", stalled.getLocalPort())
                .connectionsPerNode(1)
                .ioThreads(1)
                .deadline(Duration.ofMillis(deadlineMillis))
                .maxInFlightPerConnection(Math.max(1024, Integer.highestOneBit(rate) * 2))
                .answerHandler((correlationId, requestId, campaignId, bid, reason) ->
                {
                    // one event loop thread calls this: the histogram has one writer; the first
                    // second warms up and is not recorded
                    if (correlationId >= rate)
                    {
                        latencyNanos.recordValue(System.nanoTime() - calledAt[(int)correlationId]);
                    }
                    if (bid || reason != ClientReason.DEADLINE_EXCEEDED)
                    {
                        wrongAnswers[0]++;
                    }
                    done.countDown();
                });
            try (PacerClient client = PacerClient.connect(context))
            {
                if (!client.awaitConnected(Duration.ofSeconds(10)))
                {
                    throw new IllegalStateException("the stalled node did not accept a connection");
                }
                final long intervalNanos = TimeUnit.SECONDS.toNanos(1) / rate;
                final long start = System.nanoTime();
                for (int i = 0; i < count; i++)
                {
                    final long due = start + i * intervalNanos;
                    long now;
                    while ((now = System.nanoTime()) < due)
                    {
                        LockSupport.parkNanos(due - now);
                    }
                    calledAt[i] = System.nanoTime();
                    client.bid(1, 1_000_000, i);
                }
                if (!done.await(seconds + 30L, TimeUnit.SECONDS))
                {
                    throw new IllegalStateException((count - done.getCount()) + " of " + count + " bids came back");
                }
            }
        }
        System.out.println(String.format(Locale.ROOT,
            "{\"ratePerSecond\":%d,\"seconds\":%d,\"deadlineMillis\":%d,\"bids\":%d,\"notFailSafe\":%d,"
                + "\"latencyMicros\":{\"p50\":%.1f,\"p99\":%.1f,\"p99.9\":%.1f,\"max\":%.1f}}",
            rate, seconds, deadlineMillis, latencyNanos.getTotalCount(), wrongAnswers[0],
            latencyNanos.getValueAtPercentile(50) / 1e3, latencyNanos.getValueAtPercentile(99) / 1e3,
            latencyNanos.getValueAtPercentile(99.9) / 1e3, latencyNanos.getMaxValue() / 1e3));
    }

    private static void swallow(final ServerSocket stalled)
    {
        try
        {
            while (true)
            {
                final Socket socket = stalled.accept();
                final Thread reader = new Thread(() -> drain(socket), "stalled-reader");
                reader.setDaemon(true);
                reader.start();
            }
        }
        catch (final IOException closed)
        {
            // the run is over
        }
    }

    private static void drain(final Socket socket)
    {
        final byte[] sink = new byte[65536];
        try (socket; InputStream in = socket.getInputStream())
        {
            while (in.read(sink) >= 0)
            {
                // read and never answer
            }
        }
        catch (final IOException closed)
        {
            // the client went away
        }
    }
}
