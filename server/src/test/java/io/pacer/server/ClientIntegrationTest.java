package io.pacer.server;

import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import io.pacer.client.BidAnswer;
import io.pacer.client.ClientMetrics;
import io.pacer.client.ClientStats;
import io.pacer.client.PacerClient;
import io.pacer.wire.Reason;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import static io.pacer.server.TestPacer.asap;
import static org.assertj.core.api.Assertions.assertThat;

/** The client library against the real server in this JVM, over loopback TCP. */
class ClientIntegrationTest
{
    @Test
    void shouldBidAndBookThroughTheClientWithTheServersOwnAccounting() throws Exception
    {
        try (TestPacer pacer = TestPacer.start(asap(1, 1_000_000), asap(2, 100)))
        {
            final PrometheusMeterRegistry registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
            try (PacerClient client = PacerClient.connect(new PacerClient.Context()
                .node(pacer.server.gatewayAddress()).connectionsPerNode(2).deadline(Duration.ofSeconds(5))))
            {
                ClientMetrics.bind(client, registry);
                assertThat(client.awaitConnected(Duration.ofSeconds(10))).isTrue();
                final List<CompletableFuture<BidAnswer>> answers = new ArrayList<>();
                for (int i = 0; i < 2_000; i++)
                {
                    answers.add(client.bid(1 + i % 2, 1_000_000));
                }
                long bids = 0;
                long wins = 0;
                long pacing = 0;
                for (final CompletableFuture<BidAnswer> f : answers)
                {
                    final BidAnswer a = f.get(10, TimeUnit.SECONDS);
                    assertThat(a.failSafe()).isFalse();
                    if (a.bid())
                    {
                        bids++;
                        if (bids % 2 == 0)
                        {
                            client.win(a.requestId(), a.campaignId(), 500_000);
                            client.win(a.requestId(), a.campaignId(), 500_000); // a resend: booked once
                            wins++;
                        }
                        else
                        {
                            client.loss(a.requestId(), a.campaignId());
                        }
                    }
                    else if (a.reason() == Reason.BUDGET_EXHAUSTED.value())
                    {
                        pacing++;
                    }
                }
                assertThat(client.awaitNoticesAcknowledged(Duration.ofSeconds(10))).isTrue();
                final long spent = pacer.campaign(1).get("spentNanos").asLong() + pacer.campaign(2).get("spentNanos").asLong();
                assertThat(spent).isEqualTo(wins * 500_000);
                assertThat(pacer.campaign(1).get("reservedNanos").asLong() + pacer.campaign(2).get("reservedNanos").asLong()).isZero();
                assertThat(pacing).as("campaign 2's budget runs out").isPositive();
                assertThat(MetricsIntegrationTest.scrape(pacer).get("pacer_notices_duplicate_total")).isEqualTo((double)wins);
                assertThat(client.stats().get(ClientStats.Count.ANSWERED_BID)).isEqualTo(bids);
                final String scrape = registry.scrape();
                assertThat(scrape).contains("pacer_client_bids_sent_total 2000.0", "pacer_client_latency_seconds_count",
                    "pacer_client_failsafe_total{reason=\"deadline\"} 0.0", "pacer_client_notices_pending 0.0");
            }
        }
    }

    @Test
    void shouldRunTheExampleGatewayAgainstTheRealServer() throws Exception
    {
        try (TestPacer pacer = TestPacer.start(asap(42, 1_000_000_000)))
        {
            final java.io.ByteArrayOutputStream printed = new java.io.ByteArrayOutputStream();
            final int exit = io.pacer.client.example.ExampleGateway.run("127.0.0.1", pacer.server.gatewayAddress().getPort(), 42,
                3_000, new java.io.PrintStream(printed, true, java.nio.charset.StandardCharsets.UTF_8));
            final String output = printed.toString(java.nio.charset.StandardCharsets.UTF_8);
            assertThat(exit).as(output).isZero();
            assertThat(output).contains("first bid, through a future: ", "notices read by the pacer: true");
            final java.util.regex.Matcher counts = java.util.regex.Pattern
                .compile("bids 3000: BID (\\d+) \\(won (\\d+) at 1.25 CPM\\), NO_BID (\\d+), failed safe (\\d+)").matcher(output);
            assertThat(counts.find()).as(output).isTrue();
            // every bid answered once; a bid failed safe at the 5 ms deadline on this shared host is a NO_BID
            assertThat(Long.parseLong(counts.group(1)) + Long.parseLong(counts.group(3)) + Long.parseLong(counts.group(4)))
                .isEqualTo(3_000);
            assertThat(Long.parseLong(counts.group(1))).isPositive();
            assertThat(pacer.campaign(42).get("spentNanos").asLong()).isEqualTo(Long.parseLong(counts.group(2)) * 1_250_000L);
            assertThat(pacer.campaign(42).get("reservedNanos").asLong()).isZero();
        }
    }
}
