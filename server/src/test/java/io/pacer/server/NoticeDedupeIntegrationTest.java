package io.pacer.server;

import com.fasterxml.jackson.databind.JsonNode;
import org.junit.jupiter.api.Test;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;

import static io.pacer.server.TestPacer.asap;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * Notices resent on purpose over a real connection are booked once and counted (protocol.md:
 * notices are idempotent within the dedupe window), and the window survives a snapshot, a restart
 * that replays the journal, and the audit replay.
 */
class NoticeDedupeIntegrationTest
{
    private static final int REQUESTS = 400;
    private static final long BID_CPM = 3_000_000;
    private static final long PRICE_CPM = 2_000_000;
    private static final String DUPLICATES = "pacer_notices_duplicate_total";
    private static final String CONFLICTING = "pacer_notices_conflicting_total";

    /** Bids REQUESTS times; wins the even requests, loses the odd ones. */
    private static void bidAndSettle(final TestPacer pacer) throws Exception
    {
        try (GatewayClient client = pacer.client())
        {
            for (int i = 1; i <= REQUESTS; i++)
            {
                client.bid(i, 1, BID_CPM);
            }
            final List<String> answers = client.send().read(REQUESTS);
            assertThat(answers).allMatch(a -> a.startsWith("BID "));
            sendNotices(client);
        }
    }

    private static void sendNotices(final GatewayClient client) throws Exception
    {
        for (int i = 1; i <= REQUESTS; i++)
        {
            if (i % 2 == 0)
            {
                client.win(i, 1, PRICE_CPM);
            }
            else
            {
                client.loss(i, 1);
            }
        }
        client.send();
        // an answered bid after the notices: they were read and decided before it
        assertThat(client.ask(1_000_000 + System.nanoTime() % 1_000_000, 2, 1_000)).startsWith("BID ");
    }

    /** Resends every notice, as a gateway would after a reconnect. */
    private static void resend(final TestPacer pacer) throws Exception
    {
        try (GatewayClient client = pacer.client())
        {
            sendNotices(client);
        }
    }

    private static long expectedSpentNanos()
    {
        return (REQUESTS / 2) * (PRICE_CPM);
    }

    private static double metric(final TestPacer pacer, final String series) throws Exception
    {
        return MetricsIntegrationTest.scrape(pacer).getOrDefault(series, 0.0);
    }

    @Test
    void shouldBookResentNoticesOnceAndCountThem() throws Exception
    {
        try (TestPacer pacer = TestPacer.start(asap(1, 100_000_000), asap(2, 1_000_000)))
        {
            bidAndSettle(pacer);
            resend(pacer);
            resend(pacer);
            final JsonNode campaign = pacer.campaign(1);
            assertThat(campaign.get("spentNanos").asLong()).isEqualTo(expectedSpentNanos());
            assertThat(campaign.get("reservedNanos").asLong()).isZero();
            assertThat(campaign.get("lateWins").asLong()).isZero();
            assertThat(metric(pacer, DUPLICATES)).isEqualTo(2.0 * REQUESTS);

            // a win after a loss is the exchange's word on money: booked once, counted as conflicting
            try (GatewayClient client = pacer.client())
            {
                client.win(1, 1, PRICE_CPM).win(1, 1, PRICE_CPM).loss(1, 1).send();
                assertThat(client.ask(5_000_000, 2, 1_000)).startsWith("BID ");
            }
            assertThat(pacer.campaign(1).get("spentNanos").asLong()).isEqualTo(expectedSpentNanos() + PRICE_CPM);
            assertThat(metric(pacer, CONFLICTING)).isEqualTo(1.0);
            assertThat(metric(pacer, DUPLICATES)).isEqualTo(2.0 * REQUESTS + 2);
        }
    }

    @Test
    void shouldStillBookResentNoticesOnceAfterARestartThatReplaysTheJournal() throws Exception
    {
        try (TestPacer pacer = TestPacer.start(asap(1, 100_000_000), asap(2, 1_000_000)))
        {
            bidAndSettle(pacer);
            pacer.stopKeepingFiles();
            try (TestPacer restarted = TestPacer.restart(pacer.home, Map.of()))
            {
                assertThat(restarted.server.replayedEvents()).isPositive();
                resend(restarted);
                assertThat(restarted.campaign(1).get("spentNanos").asLong()).isEqualTo(expectedSpentNanos());
                assertThat(metric(restarted, DUPLICATES)).isEqualTo(REQUESTS);
                restarted.stopKeepingFiles();
                final JournalIntegrationTest.Run audit =
                    JournalIntegrationTest.cli("replay", "--journal", restarted.journalDir().toString());
                assertThat(audit.exitCode()).isZero();
                assertThat(audit.out()).contains("duplicates " + REQUESTS + ",");
            }
        }
    }

    @Test
    void shouldStillBookResentNoticesOnceAfterARestartFromASnapshot() throws Exception
    {
        final Map<String, Object> manual = Map.of("pacer.journal.snapshot-interval", "0s");
        try (TestPacer pacer = TestPacer.start(manual, asap(1, 100_000_000), asap(2, 1_000_000)))
        {
            bidAndSettle(pacer);
            final Path snapshot = pacer.server.snapshotNow();
            assertThat(snapshot).exists();
            pacer.stopKeepingFiles();
            try (TestPacer restarted = TestPacer.restart(pacer.home, manual))
            {
                assertThat(restarted.server.recoveredFromSequence()).isPositive();
                resend(restarted);
                assertThat(restarted.campaign(1).get("spentNanos").asLong()).isEqualTo(expectedSpentNanos());
                assertThat(metric(restarted, DUPLICATES)).isEqualTo(REQUESTS);
                restarted.stopKeepingFiles();
            }
        }
    }
}
