package io.pacer.server;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.json.JsonMapper;
import io.pacer.model.CampaignBook;
import io.pacer.pipeline.EventType;
import io.pacer.pipeline.journal.JournalReader;
import io.pacer.pipeline.journal.JournalReplay;
import org.junit.jupiter.api.Test;

import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;

import static io.pacer.server.TestPacer.asap;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * The real server as a separate process, under load with wins and losses, killed with SIGKILL
 * mid-run and restarted: nothing a gateway was told is missing from the journal, the restarted
 * server's money equals what replaying the journal gives, and it keeps pacing.
 */
class CrashRecoveryIT
{

    @Test
    void shouldLoseNothingAnsweredWhenKilledAndRecoverTheSameMoney() throws Exception
    {
        final Path home = Files.createTempDirectory("pacer-crash");
        TestPacer.writeCampaigns(home.resolve("campaigns.json"), asap(1, 1_000_000_000), asap(2, 2_000_000));
        final int gateway = PacerProcess.freePort();
        final int admin = PacerProcess.freePort();
        final Process server = PacerProcess.start(home, gateway, admin);

        final Set<Long> bidsReceived = ConcurrentHashMap.newKeySet();
        final CompletableFuture<Void> load = CompletableFuture.runAsync(() ->
        {
            long requestId = 0;
            try (GatewayClient client = new GatewayClient(new InetSocketAddress("127.0.0.1", gateway)))
            {
                final List<Long> toNotify = new ArrayList<>();
                while (true)
                {
                    for (final Long id : toNotify)
                    {
                        if (id % 3 == 0)
                        {
                            client.win(id, 1 + id % 2, 600 + id % 400);
                        }
                        else
                        {
                            client.loss(id, 1 + id % 2);
                        }
                    }
                    toNotify.clear();
                    for (int i = 0; i < 200; i++)
                    {
                        ++requestId;
                        client.bid(requestId, 1 + requestId % 2, 1_000 + requestId % 500);
                    }
                    for (final String answer : client.send().read(200))
                    {
                        if (answer.startsWith("BID "))
                        {
                            final long id = Long.parseLong(answer.substring(4));
                            bidsReceived.add(id);
                            if (id % 5 != 0)
                            {
                                toNotify.add(id);
                            }
                        }
                    }
                }
            }
            catch (final java.io.IOException killed)
            {
                // the server died under us: the point of the test
            }
        });
        Thread.sleep(2_000);
        server.destroyForcibly();
        assertThat(server.waitFor(30, TimeUnit.SECONDS)).isTrue();
        load.get(30, TimeUnit.SECONDS);
        assertThat(bidsReceived).hasSizeGreaterThan(1_000);

        // every BID the client received is in the journal, as a BID
        final Path journal = home.resolve("data/journal");
        final Set<Long> journaledBids = new HashSet<>();
        final JournalReplay replay = JournalReplay.ofJournal(new JournalReader(journal), (record, replayed, shard) ->
        {
            if (record.type() == EventType.BID_REQUEST && record.reason() == 0)
            {
                journaledBids.add(record.requestId());
            }
        });
        final Set<Long> missing = new HashSet<>(bidsReceived);
        missing.removeAll(journaledBids);
        assertThat(missing).as("BIDs the client received that the journal lacks").isEmpty();
        assertThat(replay.mismatches()).isZero();

        // restarted, the server holds exactly the money the journal gives, and keeps pacing
        final Process restarted = PacerProcess.start(home, gateway, admin);
        try
        {
            for (final long id : new long[] {1, 2})
            {
                final CampaignBook replayed = replay.campaign(id);
                final JsonNode state = JsonMapper.builder().build().readTree(HttpClient.newHttpClient().send(
                    HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + admin + "/campaigns/" + id)).GET().build(),
                    HttpResponse.BodyHandlers.ofString()).body());
                assertThat(state.get("spentNanos").asLong()).as("campaign %d spent", id).isEqualTo(replayed.spentNanos());
                assertThat(state.get("reservedNanos").asLong()).as("campaign %d reserved", id)
                    .isEqualTo(replayed.reservedNanos());
            }
            assertThat(replay.campaign(1).spentNanos()).isPositive();
            try (GatewayClient client = new GatewayClient(new InetSocketAddress("127.0.0.1", gateway)))
            {
                // a shard cold from the restart may shed a first bid past the 20 ms queue deadline (OVERLOADED,
                // the gateway's "try later"); a pacing shard answers BID within a few tries
                String answer = client.ask(99_000_000, 1, 1_000);
                for (long retry = 1; retry < 20 && answer.endsWith("OVERLOADED"); retry++)
                {
                    Thread.sleep(100);
                    answer = client.ask(99_000_000 + retry, 1, 1_000);
                }
                assertThat(answer).startsWith("BID ");
            }
        }
        finally
        {
            restarted.destroy();
            assertThat(restarted.waitFor(30, TimeUnit.SECONDS)).isTrue();
        }
        assertThat(restarted.exitValue()).isZero();
        TestPacer.deleteTree(home);
    }
}
