package io.pacer.server;

import io.pacer.server.gateway.ConnectionEvent;
import io.pacer.server.gateway.PermissionCounters;
import io.pacer.wire.BidRequestDecoder;
import io.pacer.wire.WinNoticeDecoder;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import javax.net.ssl.SSLContext;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;

import static io.pacer.server.TestPacer.asap;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * Mutual TLS and per-identity permissions on the gateway listener, over real TLS on loopback,
 * with a certificate authority and certificates the test makes itself.
 */
class MutualTlsIntegrationTest
{
    private static Path dir;
    private static TestCertificates certificates;
    private static Path authority;
    private static Map<String, Object> config;

    @BeforeAll
    static void makeCertificates() throws Exception
    {
        dir = Files.createTempDirectory("pacer-mtls");
        certificates = new TestCertificates(dir);
        authority = certificates.authority("pacer-test-ca");
        final Path[] server = certificates.server("pacer-test-ca", "localhost");
        config = Map.of(
            "pacer.gateway.tls.cert-file", server[0].toString(),
            "pacer.gateway.tls.key-file", server[1].toString(),
            "pacer.gateway.tls.client-ca-file", authority.toString(),
            "pacer.gateways", Map.of(
                "bidder-1", Map.of("send", List.of("bid-request")),
                "exchange-feed", Map.of("send", List.of("win-notice", "loss-notice")),
                "bidder-low-ids", Map.of("send", List.of("bid-request"), "campaigns", List.of("1-10"))));
    }

    @AfterAll
    static void removeCertificates() throws IOException
    {
        TestPacer.deleteTree(dir);
    }

    @Test
    void shouldRefuseAtTheHandshakeAGatewayWithoutACertificateOrWithOneFromAnotherAuthority() throws Exception
    {
        certificates.authority("rogue-ca");
        final Path rogue = certificates.gateway("rogue-ca", "bidder-1");
        try (TestPacer pacer = TestPacer.start(config, asap(1, 1_000_000)))
        {
            assertRefused(pacer, certificates.client(null, authority));
            assertRefused(pacer, certificates.client(rogue, authority));

            TestPacer.eventually(Duration.ofSeconds(10),
                () -> pacer.server.gatewayStats().total(ConnectionEvent.TLS_HANDSHAKE_FAILED) == 2);
            assertThat(pacer.server.gatewayStats().total(io.pacer.server.gateway.GatewayStats.BID_REQUESTS)).isZero();
        }
    }

    @Test
    void shouldRefuseAWinNoticeFromABidOnlyGatewayAndBookNothing() throws Exception
    {
        try (TestPacer pacer = TestPacer.start(config, asap(1, 1_000_000));
             GatewayClient bidder = connect(pacer, "bidder-1"))
        {
            assertThat(bidder.ask(7, 1, 9_000)).isEqualTo("BID 7");
            bidder.win(7, 1, 9_000).send();

            assertThat(bidder.read(1)).containsExactly("ERROR 7 NOT_PERMITTED " + WinNoticeDecoder.TEMPLATE_ID);
            assertThat(pacer.get("/campaigns/1").body()).contains("\"spentMicros\":0,", "\"wins\":0");
            assertThat(refusals(pacer, "bidder-1").notPermitted().get()).isEqualTo(1);
            assertThat(pacer.server.metrics().scrape(io.pacer.monitoring.PacerMetrics.PROMETHEUS_TEXT))
                .contains("pacer_gateway_messages_total{gateway=\"bidder-1\",type=\"bid_request\"} 1.0",
                    "pacer_gateway_messages_total{gateway=\"bidder-1\",type=\"win_notice\"} 1.0",
                    "pacer_gateway_refused_total{gateway=\"bidder-1\",reason=\"not_permitted\"} 1.0");
        }
    }

    @Test
    void shouldBookTheWinsOfTheExchangeFeedAndRefuseItsBids() throws Exception
    {
        try (TestPacer pacer = TestPacer.start(config, asap(1, 1_000_000));
             GatewayClient bidder = connect(pacer, "bidder-1");
             GatewayClient feed = connect(pacer, "exchange-feed"))
        {
            assertThat(bidder.ask(7, 1, 9_000)).isEqualTo("BID 7");
            feed.win(7, 1, 9_000).send();
            assertThat(feed.ask(8, 1, 9_000)).isEqualTo("ERROR 8 NOT_PERMITTED " + BidRequestDecoder.TEMPLATE_ID);
            assertThat(feed.ask(9, 1, 0)).as("a probe: no price, reserves nothing, answered from the ring")
                .isEqualTo("NO_BID 9 INVALID_REQUEST");

            TestPacer.eventually(Duration.ofSeconds(10), () -> pacer.get("/campaigns/1").body().contains("\"wins\":1"));
            assertThat(refusals(pacer, "exchange-feed").notPermitted().get()).isEqualTo(1);
        }
    }

    @Test
    void shouldAttributeEveryJournaledBidAndWinToTheGatewayThatSentIt() throws Exception
    {
        final Path journal;
        try (TestPacer pacer = TestPacer.start(config, asap(1, 1_000_000));
             GatewayClient bidder = connect(pacer, "bidder-1");
             GatewayClient feed = connect(pacer, "exchange-feed"))
        {
            journal = pacer.journalDir();
            for (int i = 1; i <= 3; i++)
            {
                assertThat(bidder.ask(i, 1, 9_000)).isEqualTo("BID " + i);
                feed.win(i, 1, 9_000).send();
                // two connections: the next bid must not overtake this win on its way to the ring
                final String wins = "\"wins\":" + i;
                TestPacer.eventually(Duration.ofSeconds(10), () -> pacer.get("/campaigns/1").body().contains(wins));
            }
            TestPacer.eventually(Duration.ofSeconds(10), () -> pacer.get("/campaigns/1").body().contains("\"wins\":3"));
            pacer.server.close();

            final List<String> senders = new java.util.ArrayList<>();
            new io.pacer.pipeline.journal.JournalReader(journal).read((record, header) ->
            {
                if (record.type() != io.pacer.pipeline.EventType.TICK && record.type() != io.pacer.pipeline.EventType.CAMPAIGN_UPDATE)
                {
                    senders.add(record.type() + " " + record.requestId() + " " + record.gatewayName());
                }
            }, false);
            assertThat(senders).containsExactly("BID_REQUEST 1 bidder-1", "WIN_NOTICE 1 exchange-feed",
                "BID_REQUEST 2 bidder-1", "WIN_NOTICE 2 exchange-feed", "BID_REQUEST 3 bidder-1", "WIN_NOTICE 3 exchange-feed");

            final JournalIntegrationTest.Run report = JournalIntegrationTest.cli(
                "replay", "--journal", journal.toString(), "--gateway", "exchange-feed", "--format", "json");
            assertThat(report.exitCode()).as(report.err()).isZero();
            assertThat(report.out()).contains(
                "\"gateways\":[{\"gateway\":\"exchange-feed\",\"bidRequests\":0,\"bids\":0,\"wins\":3,\"losses\":0,\"notifiedNanos\":27000}]");
            final JournalIntegrationTest.Run text = JournalIntegrationTest.cli("replay", "--journal", journal.toString());
            assertThat(text.out()).containsPattern("bidder-1 +3 +3 +0 +0 ").containsPattern("exchange-feed +0 +0 +3 +0 ");
        }
    }

    @Test
    void shouldAnswerUnknownCampaignForACampaignOutsideTheGatewaysIds() throws Exception
    {
        try (TestPacer pacer = TestPacer.start(config, asap(5, 1_000_000), asap(20, 1_000_000));
             GatewayClient bidder = connect(pacer, "bidder-low-ids"))
        {
            assertThat(bidder.ask(1, 5, 9_000)).isEqualTo("BID 1");
            assertThat(bidder.ask(2, 20, 9_000)).as("campaign 20 exists, but not for this gateway")
                .isEqualTo("NO_BID 2 UNKNOWN_CAMPAIGN");
            assertThat(bidder.ask(3, 21, 9_000)).as("and looks like one that does not").isEqualTo("NO_BID 3 UNKNOWN_CAMPAIGN");
            assertThat(refusals(pacer, "bidder-low-ids").outsideCampaigns().get()).isEqualTo(2);
            assertThat(bidder.ask(4, 20, 0)).as("a bid of no price is invalid whatever its campaign, decided in the ring")
                .isEqualTo("NO_BID 4 INVALID_REQUEST");
            assertThat(refusals(pacer, "bidder-low-ids").outsideCampaigns().get()).isEqualTo(2);
        }
    }

    @Test
    void shouldLetAnUnlistedIdentitySendNothing() throws Exception
    {
        try (TestPacer pacer = TestPacer.start(config, asap(1, 1_000_000));
             GatewayClient stranger = connect(pacer, "someone-else"))
        {
            assertThat(stranger.ask(1, 1, 9_000)).isEqualTo("ERROR 1 NOT_PERMITTED " + BidRequestDecoder.TEMPLATE_ID);
            assertThat(refusals(pacer, PermissionCounters.UNLISTED).notPermitted().get()).isEqualTo(1);
            assertThat(pacer.server.metrics().scrape(io.pacer.monitoring.PacerMetrics.PROMETHEUS_TEXT))
                .contains("pacer_gateway_refused_total{gateway=\"(unlisted)\",reason=\"not_permitted\"} 1.0");
        }
    }

    private static GatewayClient connect(final TestPacer pacer, final String cn) throws Exception
    {
        return new GatewayClient(pacer.server.gatewayAddress(),
            certificates.client(certificates.gateway("pacer-test-ca", cn), authority));
    }

    private static void assertRefused(final TestPacer pacer, final SSLContext tls) throws Exception
    {
        try (GatewayClient client = new GatewayClient(pacer.server.gatewayAddress(), tls))
        {
            try
            {
                client.bid(1, 1, 9_000).send();
            }
            catch (final IOException refused)
            {
                return;
            }
            client.timeoutMillis(5_000);
            assertThat(client.isClosedByServer()).isTrue();
        }
    }

    private static PermissionCounters.Counts refusals(final TestPacer pacer, final String identity)
    {
        return pacer.server.gatewayPermissionCounters().all().get(identity);
    }
}
