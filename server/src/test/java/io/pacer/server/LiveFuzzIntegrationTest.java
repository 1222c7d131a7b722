package io.pacer.server;

import com.fasterxml.jackson.databind.JsonNode;
import io.pacer.model.wire.FrameEncoder;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

import static io.pacer.server.TestPacer.asap;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * Eight hostile gateways send random and mutated frames (reconnecting whenever the server
 * closes them) while one clean gateway runs steady bid / win / loss traffic: the server stays
 * up, the clean gateway gets every answer, and its campaign holds exactly the money its own
 * traffic implies.
 */
class LiveFuzzIntegrationTest
{
    private static final long CLEAN_CAMPAIGN = 1;
    private static final int HOSTILE = 8;

    @Test
    void shouldServeCleanTrafficExactlyWhileHostileConnectionsSendGarbage() throws Exception
    {
        try (TestPacer pacer = TestPacer.start(asap(CLEAN_CAMPAIGN, 1_000_000_000L));
             GatewayClient clean = pacer.client())
        {
            final AtomicLong hostileBytes = new AtomicLong();
            final AtomicLong reconnects = new AtomicLong();
            final long end = System.nanoTime() + TimeUnit.SECONDS.toNanos(4);
            final List<Thread> attackers = new ArrayList<>();
            for (int i = 0; i < HOSTILE; i++)
            {
                final long seed = 1_000 + i;
                final Thread attacker = new Thread(
                    () -> attack(pacer.server.gatewayAddress(), seed, end, hostileBytes, reconnects), "hostile-" + i);
                attacker.start();
                attackers.add(attacker);
            }

            // clean traffic: bids in groups of 20; each BID is won at 1,000 CPM micros or lost, alternately
            long expectedSpentMicros = 0;
            int bids = 0;
            long requestId = 0;
            while (System.nanoTime() < end && bids < 200_000)
            {
                for (int i = 0; i < 20; i++)
                {
                    clean.bid(requestId + i, CLEAN_CAMPAIGN, 2_000);
                }
                final List<String> answers = clean.send().read(20);
                for (int i = 0; i < 20; i++)
                {
                    final long id = requestId + i;
                    assertThat(answers.get(i)).isEqualTo("BID " + id);
                    if (id % 2 == 0)
                    {
                        clean.win(id, CLEAN_CAMPAIGN, 1_000);
                        expectedSpentMicros += 1;
                    }
                    else
                    {
                        clean.loss(id, CLEAN_CAMPAIGN);
                    }
                }
                requestId += 20;
                bids += 20;
            }
            for (final Thread attacker : attackers)
            {
                attacker.join(30_000);
            }
            // the notices of the last group, then a marker bid behind them in ring order
            assertThat(clean.ask(requestId, CLEAN_CAMPAIGN, 2_000)).isEqualTo("BID " + requestId);
            clean.loss(requestId, CLEAN_CAMPAIGN).send();

            System.out.printf("live fuzz: %d hostile bytes over %d connections, %d clean bids%n",
                hostileBytes.get(), reconnects.get(), bids);
            assertThat(hostileBytes.get()).isGreaterThan(1_000_000);
            assertThat(bids).isGreaterThan(1_000);
            assertThat(pacer.get("/health").statusCode()).isEqualTo(200);
            final JsonNode state = awaitSettled(pacer, expectedSpentMicros);
            assertThat(state.get("spentMicros").asLong()).isEqualTo(expectedSpentMicros);
            assertThat(state.get("reservedMicros").asLong()).isZero();
            assertThat(state.get("wins").asLong()).isEqualTo(expectedSpentMicros);
            try (GatewayClient fresh = pacer.client())
            {
                assertThat(fresh.ask(requestId + 1, CLEAN_CAMPAIGN, 2_000)).isEqualTo("BID " + (requestId + 1));
            }
        }
    }

    private static JsonNode awaitSettled(final TestPacer pacer, final long spentMicros) throws Exception
    {
        TestPacer.eventually(Duration.ofSeconds(10), () ->
        {
            final JsonNode state = pacer.campaign(CLEAN_CAMPAIGN);
            return state.get("spentMicros").asLong() == spentMicros && state.get("reservedMicros").asLong() == 0;
        });
        return pacer.campaign(CLEAN_CAMPAIGN);
    }

    /** Sends garbage until {@code end}, reading and dropping whatever comes back; reconnects when closed. */
    private static void attack(
        final InetSocketAddress address, final long seed, final long end, final AtomicLong bytes, final AtomicLong connections)
    {
        final SplittableRandom random = new SplittableRandom(seed);
        final FrameEncoder encoder = new FrameEncoder();
        final UnsafeBuffer frame = new UnsafeBuffer(new byte[64]);
        final byte[] drain = new byte[1 << 16];
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
