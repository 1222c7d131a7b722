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
    private Path home;
    private int gateway;
    private int admin;

    /** A pacer process in a new home with one ASAP campaign (id 1) and a budget that does not run out. */
    private Process startFresh(final String name) throws Exception
    {
        home = Files.createTempDirectory(name);
        TestPacer.writeCampaigns(home.resolve("campaigns.json"), TestPacer.asap(1, 1_000_000_000_000L));
        gateway = PacerProcess.freePort();
        admin = PacerProcess.freePort();
        return PacerProcess.start(home, gateway, admin);
    }

    @Test
    void shouldBookEveryWinTheClientSentExactlyOnceAcrossASigtermAndASigkill() throws Exception
    {
        Process server = startFresh("pacer-client-restart");
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

            final JsonNode campaign = campaign();
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

    /**
     * The real server stopped (SIGSTOP) for 400 ms under a steady 2,000 bids a second, then let go
     * (SIGCONT): the bids it holds fail safe at the deadline, each is released by a LossNotice,
     * and once the late answers are in nothing stays reserved.
     */
    @Test
    void shouldFailSafeAtTheDeadlineWhileTheServerIsStoppedAndReleaseEveryLateBid() throws Exception
    {
        final Process server = startFresh("pacer-client-stall");
        final long deadlineNanos = TimeUnit.MILLISECONDS.toNanos(5);
        final long[] calledAt = new long[20_000];
        final org.HdrHistogram.Histogram failSafeNanos = new org.HdrHistogram.Histogram(3);
        final org.HdrHistogram.Histogram whileStoppedNanos = new org.HdrHistogram.Histogram(3);
        client = PacerClient.connect(new PacerClient.Context().node("127.0.0.1", gateway).clientId(43)
            .deadline(Duration.ofNanos(deadlineNanos)).closeTimeout(Duration.ofSeconds(10))
            .answerHandler((correlationId, requestId, campaignId, bid, reason) ->
            {
                if (reason == io.pacer.client.ClientReason.DEADLINE_EXCEEDED && correlationId >= 2_000)
                {
                    // one event loop: one writer
                    final long waited = System.nanoTime() - calledAt[(int)correlationId];
                    failSafeNanos.recordValue(waited);
                    if (correlationId >= 3_000 && correlationId < 3_800)
                    {
                        whileStoppedNanos.recordValue(waited); // made while the server was stopped
                    }
                }
                onAnswer(correlationId, requestId, campaignId, bid, reason);
            }));
        try
        {
            assertThat(client.awaitConnected(Duration.ofSeconds(10))).isTrue();
            final long start = System.nanoTime();
            int sent = 0;
            // a steady 2,000 bids a second for 3 s; the server is stopped for 50 ms at 0.5 s (the
            // client's time-out path warms up; not measured), then from 1.5 s to 1.9 s
            for (int i = 0; i < 6_000; i++)
            {
                final long due = start + i * 500_000L;
                while (System.nanoTime() < due)
                {
                    java.util.concurrent.locks.LockSupport.parkNanos(due - System.nanoTime());
                }
                if (i == 1_000 || i == 3_000)
                {
                    signal(server, "STOP");
                }
                if (i == 1_100 || i == 3_800)
                {
                    signal(server, "CONT");
                }
                calledAt[i] = System.nanoTime();
                assertThat(client.bid(1, BID_CPM, i)).isPositive();
                sent++;
            }
            final int submitted = sent;
            final long end = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
            while (answersByCorrelation.size() < submitted && System.nanoTime() < end)
            {
                Thread.sleep(5);
            }
            assertThat(answersByCorrelation).hasSize(submitted);
            assertThat(client.awaitNoticesAcknowledged(Duration.ofSeconds(10))).as("every notice known read").isTrue();
            final ClientStats stats = client.stats();
            final long failedSafe = stats.get(ClientStats.Count.FAILSAFE_DEADLINE);
            System.out.printf("server stopped 400 ms: %,d bids, %,d failed safe at the deadline (after the first stop: "
                + "p50 %.2f ms, p99 %.2f ms, max %.2f ms; of the bids made while it was stopped: p50 %.2f ms, p99 %.2f ms, "
                + "max %.2f ms); %,d late answers, %,d releases%n", submitted, failedSafe,
                failSafeNanos.getValueAtPercentile(50) / 1e6, failSafeNanos.getValueAtPercentile(99) / 1e6,
                failSafeNanos.getMaxValue() / 1e6, whileStoppedNanos.getValueAtPercentile(50) / 1e6,
                whileStoppedNanos.getValueAtPercentile(99) / 1e6, whileStoppedNanos.getMaxValue() / 1e6,
                stats.get(ClientStats.Count.LATE_ANSWERS), stats.get(ClientStats.Count.RELEASES));
            // 800 bids were made while it was stopped; the last few, within the deadline of its waking, may be answered in time
            assertThat(whileStoppedNanos.getTotalCount()).as("the bids made while it was stopped").isGreaterThanOrEqualTo(700);
            assertThat(stats.get(ClientStats.Count.RELEASES)).isEqualTo(failedSafe);
            // a timed bound stays loose here (a shared 2-core host); bench/BENCHMARKS.md gives the figure. The tail is
            // bounded for the bids made while the server was stopped, which is what the deadline is for: a bid the
            // running server answered late fails safe late when the host stalls the client's own timer too (a
            // 70 ms stall of the host once put 1% of those past 30 ms)
            assertThat(failSafeNanos.getValueAtPercentile(50)).isLessThan(deadlineNanos + TimeUnit.MILLISECONDS.toNanos(1));
            assertThat(whileStoppedNanos.getValueAtPercentile(99)).isLessThan(deadlineNanos + TimeUnit.MILLISECONDS.toNanos(25));

            final JsonNode campaign = campaign();
            assertThat(campaign.get("reservedNanos").asLong()).as("every late BID released").isZero();
            assertThat(campaign.get("openReservations").asLong()).isZero();
            assertThat(campaign.get("spentNanos").asLong()).as("every win booked once").isEqualTo(winsBookedNanos.get());
        }
        finally
        {
            signal(server, "CONT");
            client.close();
            server.destroy();
            server.waitFor(30, TimeUnit.SECONDS);
        }
        TestPacer.deleteTree(home);
    }

    private static void signal(final Process process, final String signal) throws Exception
    {
        assertThat(new ProcessBuilder("kill", "-" + signal, Long.toString(process.pid())).start().waitFor()).isZero();
    }

    private JsonNode campaign() throws Exception
    {
        return JsonMapper.builder().build().readTree(HttpClient.newHttpClient().send(
            HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + admin + "/campaigns/1")).GET().build(),
            HttpResponse.BodyHandlers.ofString()).body());
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
