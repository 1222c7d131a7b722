package io.pacer.server;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.json.JsonMapper;
import io.pacer.client.ClientStats;
import io.pacer.client.PacerClient;
import org.junit.jupiter.api.Test;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The client library against the real server as a process, restarted under steady traffic: first
 * with SIGTERM, then with SIGKILL. Every win the client was told it sent is booked exactly once,
 * and every bid got exactly one answer (the pacer's, or a fail-safe NO_BID).
 */
class ClientRestartIT
{
    private static final long BID_CPM = 2_000_000;
    private static final long WIN_CPM = 1_000_000;

    private final Map<Long, Integer> answersByCorrelation = new ConcurrentHashMap<>();
    private final AtomicLong winsBookedNanos = new AtomicLong();
    private final AtomicLong wins = new AtomicLong();
    private final AtomicLong losses = new AtomicLong();
    private PacerClient client;

    @Test
    void shouldBookEveryWinTheClientSentExactlyOnceAcrossASigtermAndASigkill() throws Exception
    {
        final Path home = Files.createTempDirectory("pacer-client-restart");
        TestPacer.writeCampaigns(home.resolve("campaigns.json"), TestPacer.asap(1, 1_000_000_000_000L));
        final int gateway = PacerProcess.freePort();
        final int admin = PacerProcess.freePort();
        Process server = PacerProcess.start(home, gateway, admin);
        client = PacerClient.connect(new PacerClient.Context().node("127.0.0.1", gateway).clientId(42)
            .deadline(Duration.ofMillis(200)).reconnectBackoff(Duration.ofMillis(20), Duration.ofMillis(200))
            .closeTimeout(Duration.ofSeconds(10))
            .answerHandler(this::onAnswer));
        final AtomicLong submitted = new AtomicLong();
        final AtomicLong refused = new AtomicLong();
        final Thread sender = new Thread(() ->
        {
            // a steady 2,000 bids a second, bounded: 20 s or 40,000 bids
            final long end = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
            for (long i = 0; i < 40_000 && System.nanoTime() < end && !Thread.currentThread().isInterrupted(); i++)
            {
                submitted.incrementAndGet();
                if (client.bid(1, BID_CPM, i) < 0)
                {
                    refused.incrementAndGet();
                    answersByCorrelation.merge(i, 1, Integer::sum);
                }
                java.util.concurrent.locks.LockSupport.parkNanos(500_000);
            }
        }, "steady-bidder");
        sender.start();
        try
        {
            Thread.sleep(1_500);
            server.destroy();
            assertThat(server.waitFor(30, TimeUnit.SECONDS)).isTrue();
            assertThat(server.exitValue()).as("SIGTERM drains and exits 0").isZero();
            server = PacerProcess.start(home, gateway, admin);
            Thread.sleep(1_500);
            server.destroyForcibly();
            assertThat(server.waitFor(30, TimeUnit.SECONDS)).isTrue();
            server = PacerProcess.start(home, gateway, admin);
            Thread.sleep(1_500);
        }
        finally
        {
            sender.interrupt();
            sender.join(30_000);
        }
        try
        {
            // every bid answered once: by the pacer, or failed safe
            final long end = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
            while (answersByCorrelation.size() < submitted.get() && System.nanoTime() < end)
            {
                Thread.sleep(5);
            }
            assertThat(answersByCorrelation).hasSize((int)submitted.get());
            assertThat(answersByCorrelation.values()).allMatch(n -> n == 1);
            assertThat(client.awaitNoticesAcknowledged(Duration.ofSeconds(10))).as("every notice known read").isTrue();

            final JsonNode campaign = JsonMapper.builder().build().readTree(HttpClient.newHttpClient().send(
                HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + admin + "/campaigns/1")).GET().build(),
                HttpResponse.BodyHandlers.ofString()).body());
            final ClientStats stats = client.stats();
            System.out.printf("client restart: %,d bids, %,d refused while down, %,d wins, %,d losses, %s%n",
                submitted.get(), refused.get(), wins.get(), losses.get(), stats);
            assertThat(wins.get()).isPositive();
            assertThat(campaign.get("spentNanos").asLong()).as("every win booked exactly once")
                .isEqualTo(winsBookedNanos.get());
            assertThat(stats.get(ClientStats.Count.RECONNECTS)).isGreaterThanOrEqualTo(2);
        }
        finally
        {
            client.close();
            server.destroy();
            server.waitFor(30, TimeUnit.SECONDS);
        }
        TestPacer.deleteTree(home);
    }

    private void onAnswer(final long correlationId, final long requestId, final long campaignId, final boolean bid, final int reason)
    {
        answersByCorrelation.merge(correlationId, 1, Integer::sum);
        if (!bid)
        {
            return;
        }
        if (requestId % 3 == 0)
        {
            client.loss(requestId, campaignId);
            losses.incrementAndGet();
        }
        else
        {
            client.win(requestId, campaignId, WIN_CPM);
            wins.incrementAndGet();
            winsBookedNanos.addAndGet(WIN_CPM);
        }
    }
}
