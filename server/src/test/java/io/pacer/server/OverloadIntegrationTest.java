package io.pacer.server;

import io.pacer.pipeline.EventType;
import io.pacer.pipeline.journal.JournalReader;
import io.pacer.pipeline.journal.JournalReplay;
import io.pacer.pipeline.ThreadingMode;
import io.pacer.server.gateway.ConnectionEvent;
import io.pacer.wire.Reason;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.Map;

import static io.pacer.server.TestPacer.asap;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * Offered load far above what a 64-slot ring and a 1 ms queue deadline can take, on a real
 * server over loopback TCP: every request is answered exactly once, the OVERLOADED answers are
 * the ones counted as shed, and every WinNotice sent is booked, none shed.
 */
class OverloadIntegrationTest
{
    private static final long BUDGET_MICROS = 1_000_000_000_000L;
    private static final Map<String, Object> SMALL_RING = Map.of(
        "pacer.pipeline.ring-size", 64,
        "pacer.pipeline.shards", 1,
        "pacer.pipeline.queue-deadline", "1ms");

    @Test
    void shouldAnswerEveryRequestOnceAndBookEveryWinUnderOverload() throws Exception
    {
        try (TestPacer pacer = TestPacer.start(SMALL_RING, asap(1, BUDGET_MICROS));
             FloodClient first = new FloodClient(pacer.server.gatewayAddress(), 1);
             FloodClient second = new FloodClient(pacer.server.gatewayAddress(), 1))
        {
            final Thread other = new Thread(() -> runQuietly(second), "flood-2");
            other.start();
            first.run(3_000, 2_000_000);
            other.join(180_000);

            long overloaded = 0;
            long winsSent = 0;
            for (final FloodClient client : new FloodClient[] {first, second})
            {
                assertThat(client.sent()).isPositive();
                assertThat(client.answers()).as("one answer per request").isEqualTo(client.sent());
                assertThat(client.distinctAnswered()).as("each request answered").isEqualTo((int)client.sent());
                assertThat(client.duplicates()).isZero();
                assertThat(client.errors()).isZero();
                assertThat(client.answered(Reason.NONE)).as("some bids got through").isPositive();
                overloaded += client.answered(Reason.OVERLOADED);
                winsSent += client.winsSent();
            }
            assertThat(overloaded).as("the load was above capacity").isPositive();

            // every win sent is booked: 1 CPM is 1,000 micros per impression
            final long expectedSpent = winsSent * FloodClient.WIN_CPM_MICROS / 1000;
            assertThat(awaitSpent(pacer, expectedSpent)).isEqualTo(expectedSpent);

            final Map<String, Double> metrics = MetricsIntegrationTest.scrape(pacer);
            assertThat(metrics.get("pacer_shed_total{cause=\"ring_full\"}") +
                metrics.get("pacer_shed_total{cause=\"queue_deadline\"}")).isEqualTo((double)overloaded);
            assertThat(metrics.get("pacer_decisions_total{decision=\"no_bid\",reason=\"overloaded\"}"))
                .isEqualTo((double)overloaded);
            assertThat(metrics.get("pacer_requests_total{type=\"win_notice\"}")).isEqualTo((double)winsSent);
            // the journal holds the sheds as given: replay re-makes every other decision, same money
            pacer.stopKeepingFiles();
            final long[] shedInJournal = new long[1];
            final JournalReplay replay = JournalReplay.ofJournal(new JournalReader(pacer.journalDir()), (r, replayed, shard) ->
            {
                if (r.type() == EventType.BID_REQUEST && r.reason() == Reason.OVERLOADED.value())
                {
                    shedInJournal[0]++;
                }
            });
            assertThat(replay.mismatches()).isZero();
            assertThat(replay.campaign(1).spentNanos()).isEqualTo(expectedSpent * 1000);
            assertThat(shedInJournal[0]).as("queue-deadline sheds are journaled")
                .isEqualTo(metrics.get("pacer_shed_total{cause=\"queue_deadline\"}").longValue());

            System.out.printf("overload: %d + %d bids sent, %d OVERLOADED, %d wins booked, %d back-pressure stops%n",
                first.sent(), second.sent(), overloaded, winsSent, pacer.server.gatewayStats().total(ConnectionEvent.RING_BACKPRESSURE));
        }
    }

    @Test
    void shouldStopReadingRatherThanShedWinNoticesWhenTheRingIsFull() throws Exception
    {
        try (TestPacer pacer = TestPacer.start(SMALL_RING, asap(1, BUDGET_MICROS));
             GatewayClient client = pacer.client())
        {
            // 20,000 notices in a few writes: far more than the ring holds, read faster than decided
            final int notices = 20_000;
            for (int i = 0; i < notices; i++)
            {
                client.win(i, 1, FloodClient.WIN_CPM_MICROS);
                if (i % 10_000 == 9_999)
                {
                    client.send();
                }
            }
            final long expectedSpent = notices * FloodClient.WIN_CPM_MICROS / 1000;
            assertThat(awaitSpent(pacer, expectedSpent)).isEqualTo(expectedSpent);
            if (pacer.server.pipeline().config().threading() == ThreadingMode.SHARED)
            {
                // the loop that reads is the ring's consumer: it drains to make room, never sheds
                assertThat(pacer.server.pipeline().ringFullDrains()).as("the ring filled").isPositive();
            }
            else
            {
                assertThat(pacer.server.gatewayStats().total(ConnectionEvent.RING_BACKPRESSURE)).as("the ring filled")
                    .isPositive();
            }
            // and the connection reads again afterwards (the bid may have waited past the 1 ms deadline)
            assertThat(client.ask(1_000_000, 1, FloodClient.BID_CPM_MICROS))
                .isIn("BID 1000000", "NO_BID 1000000 OVERLOADED");
        }
    }

    @Test
    void shouldBookEveryNoticeOfAGatewayThatLeavesWhileTheyWaitForRoom() throws Exception
    {
        try (TestPacer pacer = TestPacer.start(SMALL_RING, asap(1, BUDGET_MICROS)))
        {
            final int notices = 20_000;
            try (GatewayClient client = pacer.client())
            {
                for (int i = 0; i < notices; i++)
                {
                    client.win(i, 1, FloodClient.WIN_CPM_MICROS);
                }
                client.send();
            }
            final long expectedSpent = notices * FloodClient.WIN_CPM_MICROS / 1000;
            assertThat(awaitSpent(pacer, expectedSpent)).isEqualTo(expectedSpent);
            assertThat(pacer.server.gatewayStats().noticesHeld()).isZero();
        }
    }

    @Test
    void shouldApplyAdminUpdatesThatFoundTheRingFullOnceThereIsRoom() throws Exception
    {
        try (TestPacer pacer = TestPacer.start(SMALL_RING, asap(1, BUDGET_MICROS), asap(2, 1_000)))
        {
            final java.util.concurrent.atomic.AtomicBoolean flooding = new java.util.concurrent.atomic.AtomicBoolean(true);
            final Thread flood = new Thread(() ->
            {
                try (GatewayClient client = pacer.client())
                {
                    final long end = System.nanoTime() + 20_000_000_000L;
                    for (long id = 0; flooding.get() && System.nanoTime() < end; )
                    {
                        for (int i = 0; i < 5_000; i++)
                        {
                            client.win(id++, 1, FloodClient.WIN_CPM_MICROS);
                        }
                        client.send();
                    }
                }
                catch (final java.io.IOException ex)
                {
                    throw new java.io.UncheckedIOException(ex);
                }
            }, "notice-flood");
            flood.start();
            int puts = 0;
            try
            {
                // PUTs while notices keep the 64-slot ring full, until some had to wait for room
                while ((pacer.server.adminRingWaits() == 0 || puts < 20) && puts < 2_000)
                {
                    puts++;
                    assertThat(pacer.put("/campaigns/2", asap(2, 1_000 + puts)).statusCode()).isEqualTo(200);
                }
            }
            finally
            {
                flooding.set(false);
                flood.join(30_000);
            }
            System.out.printf("admin under a notice flood: %d PUTs, %d found the ring full%n", puts, pacer.server.adminRingWaits());
            assertThat(pacer.server.adminRingWaits()).as("PUTs that found the ring full").isPositive();
            assertThat(pacer.get("/campaigns/2").body()).contains("\"budgetMicros\":" + (1_000 + puts));
        }
    }

    private static long awaitSpent(final TestPacer pacer, final long expected) throws Exception
    {
        TestPacer.eventually(Duration.ofSeconds(30), () -> pacer.campaign(1).get("spentMicros").asLong() == expected);
        return pacer.campaign(1).get("spentMicros").asLong();
    }

    private static void runQuietly(final FloodClient client)
    {
        try
        {
            client.run(3_000, 2_000_000);
        }
        catch (final Exception ex)
        {
            throw new IllegalStateException(ex);
        }
    }
}
