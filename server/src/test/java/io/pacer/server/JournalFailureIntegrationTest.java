package io.pacer.server;

import io.pacer.pipeline.EventType;
import io.pacer.pipeline.journal.JournalReader;
import io.pacer.pipeline.journal.JournalReplay;
import org.junit.jupiter.api.Test;

import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

import static io.pacer.server.TestPacer.asap;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * The journal's disk fails under traffic: the pacer fails closed. The failure is real: the
 * journal directory is moved away and a plain file put in its place, so the next segment cannot
 * be created when the current one fills up.
 */
class JournalFailureIntegrationTest
{
    private static final Map<String, Object> SEGMENT = Map.of("pacer.journal.segment-size", "1MiB");

    @Test
    void shouldStopBiddingLoudlyWhenTheJournalCannotBeWritten() throws Exception
    {
        try (TestPacer pacer = TestPacer.start(SEGMENT, asap(1, 1_000_000_000L));
             GatewayClient client = pacer.client())
        {
            assertThat(client.ask(1, 1, 1_000)).isEqualTo("BID 1");
            final Path journal = pacer.journalDir();
            final Path moved = journal.resolveSibling("journal-moved");
            Files.move(journal, moved);
            Files.writeString(journal, "not a directory");

            // ~50 bytes a record: 40,000 bids fill the 1 MiB segment, and the roll fails
            final Set<Long> bidsReceived = new HashSet<>();
            final List<String> afterFailure = new ArrayList<>();
            long requestId = 2;
            for (int batch = 0; batch < 40; batch++)
            {
                for (int i = 0; i < 1_000; i++)
                {
                    client.bid(requestId++, 1, 1_000);
                }
                for (final String answer : client.send().read(1_000))
                {
                    if (answer.startsWith("BID "))
                    {
                        bidsReceived.add(Long.parseLong(answer.substring(4)));
                    }
                    else if (pacer.server.journalFailed())
                    {
                        afterFailure.add(answer);
                    }
                }
            }
            assertThat(pacer.server.journalFailed()).as("the roll failed").isTrue();

            // from then on: no BIDs, /health DOWN with the reason, the gauge up
            assertThat(client.ask(1_000_000, 1, 1_000)).isEqualTo("NO_BID 1000000 OVERLOADED");
            assertThat(afterFailure).isNotEmpty().allMatch(a -> a.endsWith(" OVERLOADED"));
            final HttpResponse<String> health = pacer.get("/health");
            assertThat(health.statusCode()).isEqualTo(503);
            assertThat(health.body()).contains("\"status\":\"DOWN\"", "journal write failed");
            assertThat(MetricsIntegrationTest.scrape(pacer).get("pacer_journal_failed")).isEqualTo(1.0);

            // campaign changes wait for the restart rather than live only in memory
            final HttpResponse<String> put = pacer.put("/campaigns/5", asap(5, 1_000));
            assertThat(put.statusCode()).isEqualTo(503);
            assertThat(put.body()).contains("journal has failed");
            TestPacer.writeCampaigns(pacer.campaignsFile, asap(1, 1_000_000_000L), asap(6, 1_000));
            Thread.sleep(300); // six poll intervals
            assertThat(pacer.get("/campaigns/5").statusCode()).isEqualTo(404);
            assertThat(pacer.get("/campaigns/6").statusCode()).isEqualTo(404);

            // every BID that left is in the journal that was written
            final Set<Long> journaled = new HashSet<>();
            JournalReplay.ofJournal(new JournalReader(moved), (record, replayed, shard) ->
            {
                if (record.type() == EventType.BID_REQUEST && record.reason() == 0)
                {
                    journaled.add(record.requestId());
                }
            });
            assertThat(bidsReceived).hasSizeGreaterThan(10_000);
            assertThat(journaled).containsAll(bidsReceived);

            // the disk is fixed and the pacer restarted: it recovers what the journal holds, takes
            // the held campaigns-file change, and bids again
            Files.delete(journal);
            Files.move(moved, journal);
            pacer.stopKeepingFiles();
            try (TestPacer restarted = TestPacer.restart(pacer.home, SEGMENT);
                 GatewayClient again = restarted.client())
            {
                assertThat(restarted.get("/health").statusCode()).isEqualTo(200);
                assertThat(again.ask(2_000_000, 1, 1_000)).isEqualTo("BID 2000000");
                assertThat(restarted.get("/campaigns/6").statusCode()).isEqualTo(200);
            }
        }
    }
}
