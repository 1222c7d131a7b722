package io.pacer.server;

import io.pacer.wire.FrameEncoder;
import org.agrona.concurrent.UnsafeBuffer;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.util.SplittableRandom;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;

/** Hostile gateways for the tests: random and mutated frames, reconnecting whenever closed. */
final class HostileGateways
{
    static final int CHURN_WRITES = 8;

    private HostileGateways()
    {
    }

    /** Sends garbage until {@code end}, reading and dropping whatever comes back; reconnects when closed. */
    static void attack(
        final InetSocketAddress address, final long seed, final long end, final AtomicLong bytes, final AtomicLong connections)
    {
        attack(address, seed, end, bytes, connections, 0);
    }

    /**
     * As {@link #attack}, pausing {@code pauseMicros} after each write and reconnecting after
     * every {@value #CHURN_WRITES} writes: connection churn rather than a flood.
     */
    static void attack(
        final InetSocketAddress address, final long seed, final long end, final AtomicLong bytes, final AtomicLong connections,
        final long pauseMicros)
    {
        final SplittableRandom random = new SplittableRandom(seed);
        final FrameEncoder encoder = new FrameEncoder();
        final UnsafeBuffer frame = new UnsafeBuffer(new byte[64]);
        final byte[] drain = new byte[1 << 16];
        long writes = 0;
        while (System.nanoTime() < end)
        {
            try (Socket socket = new Socket())
            {
                socket.connect(address, 5_000);
                connections.incrementAndGet();
                final OutputStream out = socket.getOutputStream();
                final InputStream in = socket.getInputStream();
                while (System.nanoTime() < end)
                {
                    final byte[] garbage = garbage(random, encoder, frame);
                    out.write(garbage);
                    bytes.addAndGet(garbage.length);
                    while (in.available() > 0)
                    {
                        in.read(drain);
                    }
                    if (pauseMicros > 0)
                    {
                        LockSupport.parkNanos(pauseMicros * 1_000);
                        if (++writes % CHURN_WRITES == 0)
                        {
                            break;
                        }
                    }
                }
            }
            catch (final IOException closedByServer)
            {
                // MALFORMED_FRAME closes the connection: come back with more
            }
        }
    }

    /** A few frames: valid ones for unknown campaigns, mutated ones, or plain noise. */
    private static byte[] garbage(final SplittableRandom random, final FrameEncoder encoder, final UnsafeBuffer frame)
    {
        final int kind = random.nextInt(4);
        final int length;
        // campaign ids never equal the clean one: random 64-bit values above it
        final long campaignId = 2 + (random.nextLong() >>> 1);
        switch (kind)
        {
            case 0 -> length = encoder.bidRequest(frame, 0, random.nextLong(), campaignId, random.nextLong());
            case 1 -> length = encoder.winNotice(frame, 0, random.nextLong(), campaignId, random.nextLong());
            case 2 -> length = encoder.lossNotice(frame, 0, random.nextLong(), campaignId);
            default ->
            {
                final byte[] noise = new byte[1 + random.nextInt(60)];
                random.nextBytes(noise);
                return noise;
            }
        }
        final byte[] bytes = new byte[length];
        frame.getBytes(0, bytes);
        if (random.nextBoolean())
        {
            // corrupt one header byte (length, encoding, block length, template, schema, version)
            bytes[random.nextInt(14)] = (byte)random.nextInt(256);
        }
        if (random.nextInt(8) == 0)
        {
            return java.util.Arrays.copyOf(bytes, random.nextInt(length));
        }
        return bytes;
    }
}
