package io.pacer.server;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import static io.pacer.server.TestPacer.asap;
import static org.assertj.core.api.Assertions.assertThat;

/** The real server over real TCP: every decision reason, notices, ordering, and pipelining. */
class GatewayIntegrationTest
{
    private static TestPacer pacer;

    @BeforeAll
    static void startPacer() throws Exception
    {
        pacer = TestPacer.start(
            asap(1, 1_000_000),
            asap(2, 10),
            asap(3, 10),
            asap(4, 1_000_000, "\"maxBidCpmMicros\":2000000"),
            asap(5, 1_000_000, "\"status\":\"PAUSED\""),
            "{\"id\":6,\"budgetMicros\":100,\"start\":\"2035-01-01T00:00:00Z\",\"end\":\"2036-01-01T00:00:00Z\"}",
            "{\"id\":7,\"budgetMicros\":100,\"start\":\"2020-01-01T00:00:00Z\",\"end\":\"2021-01-01T00:00:00Z\"}",
            asap(8, 100),
            asap(9, 1_000_000_000));
    }

    @AfterAll
    static void stopPacer() throws Exception
    {
        pacer.close();
    }

    @Test
    void shouldAnswerTheWorkedExampleOfProtocolMdWithABid() throws Exception
    {
        try (GatewayClient client = pacer.client())
        {
            client.raw(HexFormat.of().parseHex(
                "00000026EB50180001000100000007000000000000002A00000000000000A025260000000000"));
            pacer.put("/campaigns/42", asap(42, 5_000_000_000L));
            assertThat(client.send().read(1)).containsExactly("BID 7");
        }
    }

    @Test
    void shouldAnswerUnknownCampaign() throws Exception
    {
        try (GatewayClient client = pacer.client())
        {
            assertThat(client.ask(1, 999, 1_000)).isEqualTo("NO_BID 1 UNKNOWN_CAMPAIGN");
        }
    }

    @Test
    void shouldBidAndBookTheWin() throws Exception
    {
        try (GatewayClient client = pacer.client())
        {
            assertThat(client.ask(10, 9, 3_000_000)).isEqualTo("BID 10");
            client.win(10, 9, 2_000_000).send();
            assertThat(client.ask(11, 999, 1)).startsWith("NO_BID 11");
            assertThat(pacer.get("/campaigns/9").body()).contains("\"spentMicros\":2000", "\"reservedMicros\":0", "\"wins\":1");
        }
    }

    @Test
    void shouldSayBudgetExhaustedExactlyAtTheBudget() throws Exception
    {
        try (GatewayClient client = pacer.client())
        {
            // campaign 2: 10 micros; a 10,000 CPM-micro bid costs exactly 10 micros
            assertThat(client.ask(20, 2, 10_000)).isEqualTo("BID 20");
            assertThat(client.ask(21, 2, 1)).isEqualTo("NO_BID 21 BUDGET_EXHAUSTED");
        }
    }

    @Test
    void shouldFreeBudgetForAnotherBidOnLossNotice() throws Exception
    {
        try (GatewayClient client = pacer.client())
        {
            assertThat(client.ask(30, 3, 10_000)).isEqualTo("BID 30");
            assertThat(client.ask(31, 3, 10_000)).isEqualTo("NO_BID 31 BUDGET_EXHAUSTED");
            client.loss(30, 3).bid(32, 3, 10_000).send();
            assertThat(client.read(1)).containsExactly("BID 32");
        }
    }

    @Test
    void shouldRejectBidAboveMax() throws Exception
    {
        try (GatewayClient client = pacer.client())
        {
            assertThat(client.ask(40, 4, 2_000_001)).isEqualTo("NO_BID 40 BID_ABOVE_MAX");
            assertThat(client.ask(41, 4, 2_000_000)).isEqualTo("BID 41");
        }
    }

    @Test
    void shouldRejectNonPositiveBidAsInvalidRequest() throws Exception
    {
        try (GatewayClient client = pacer.client())
        {
            assertThat(client.ask(50, 1, 0)).isEqualTo("NO_BID 50 INVALID_REQUEST");
            assertThat(client.ask(51, 1, -7)).isEqualTo("NO_BID 51 INVALID_REQUEST");
        }
    }

    @Test
    void shouldSayInactiveForPausedAndOutOfFlightCampaigns() throws Exception
    {
        try (GatewayClient client = pacer.client())
        {
            assertThat(client.ask(60, 5, 1_000)).isEqualTo("NO_BID 60 CAMPAIGN_INACTIVE");
            assertThat(client.ask(61, 6, 1_000)).isEqualTo("NO_BID 61 CAMPAIGN_INACTIVE");
            assertThat(client.ask(62, 7, 1_000)).isEqualTo("NO_BID 62 CAMPAIGN_INACTIVE");
        }
    }

    @Test
    void shouldApplyAPutThatLowersTheBudgetToTheVeryNextRequest() throws Exception
    {
        try (GatewayClient client = pacer.client())
        {
            assertThat(client.ask(70, 8, 40_000)).isEqualTo("BID 70");
            assertThat(pacer.put("/campaigns/8", asap(8, 50)).statusCode()).isEqualTo(200);
            assertThat(client.ask(71, 8, 10_001)).isEqualTo("NO_BID 71 BUDGET_EXHAUSTED");
            assertThat(client.ask(72, 8, 10_000)).isEqualTo("BID 72");
        }
    }

    @Test
    void shouldAnswerEveryPipelinedRequestOnceWithItsOwnId() throws Exception
    {
        try (GatewayClient client = pacer.client())
        {
            // fewer than the test ring's 4,096 slots: a fuller ring would shed some as OVERLOADED
            final int count = 3_000;
            for (int i = 0; i < count; i++)
            {
                client.bid(1_000_000 + i, i % 2 == 0 ? 1 : 999, 1_000);
            }
            final List<String> answers = client.send().read(count);
            assertThat(answers).hasSize(count).doesNotHaveDuplicates();
            assertThat(answers.stream().filter(a -> a.startsWith("BID ")).count()).isEqualTo(count / 2);
            assertThat(answers.stream().filter(a -> a.endsWith("UNKNOWN_CAMPAIGN")).count()).isEqualTo(count / 2);
        }
    }

    @Test
    void shouldLeaveAnotherConnectionUntouchedByGarbage() throws Exception
    {
        final int bids = 5_000;
        final CompletableFuture<List<String>> clean = CompletableFuture.supplyAsync(() ->
        {
            try (GatewayClient client = pacer.client())
            {
                final List<String> answers = new ArrayList<>();
                for (int batch = 0; batch < bids / 500; batch++)
                {
                    for (int i = 0; i < 500; i++)
                    {
                        client.bid(5_000_000 + batch * 500 + i, 999, 1_000);
                    }
                    answers.addAll(client.send().read(500));
                }
                return answers;
            }
            catch (final Exception ex)
            {
                throw new IllegalStateException(ex);
            }
        });
        final SplittableRandom random = new SplittableRandom(7);
        for (int c = 0; c < 20; c++)
        {
            try (GatewayClient garbage = pacer.client())
            {
                final byte[] noise = new byte[1 + random.nextInt(4096)];
                random.nextBytes(noise);
                garbage.raw(noise).send();
            }
            catch (final java.io.IOException closedByServer)
            {
                // the server may close first after MALFORMED_FRAME: that is the point
            }
        }
        final List<String> answers = clean.get(60, TimeUnit.SECONDS);
        assertThat(answers).hasSize(bids).allMatch(a -> a.endsWith("UNKNOWN_CAMPAIGN")).doesNotHaveDuplicates();
    }
}
