package io.pacer.server;

import com.fasterxml.jackson.databind.JsonNode;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
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
                final long seed = 1_000L + i;
                final Thread attacker = new Thread(
                    () -> HostileGateways.attack(pacer.server.gatewayAddress(), seed, end, hostileBytes, reconnects),
                    "hostile-" + i);
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
}
