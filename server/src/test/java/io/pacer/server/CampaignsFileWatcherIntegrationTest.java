package io.pacer.server;

import io.pacer.pipeline.EventType;
import io.pacer.pipeline.journal.JournalReader;
import org.junit.jupiter.api.Test;

import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.time.Duration;
import java.util.Map;

import static io.pacer.server.TestPacer.asap;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** The campaigns file is loaded at start and watched: good edits apply, bad ones are rejected whole. */
class CampaignsFileWatcherIntegrationTest
{
    @Test
    void shouldApplyAddedAndChangedCampaignsAndPauseRemovedOnes() throws Exception
    {
        try (TestPacer pacer = TestPacer.start(asap(1, 1_000), asap(2, 1_000)))
        {
            try (GatewayClient client = pacer.client())
            {
                assertThat(client.ask(1, 2, 1_000)).isEqualTo("BID 1");
                TestPacer.writeCampaigns(pacer.campaignsFile, asap(1, 5_000), asap(3, 1_000));
                TestPacer.eventually(Duration.ofSeconds(10), () -> pacer.get("/campaigns/3").statusCode() == 200);
                assertThat(pacer.get("/campaigns/1").body()).contains("\"budgetMicros\":5000");
                assertThat(pacer.get("/campaigns/2").body()).contains("\"status\":\"PAUSED\"", "\"reservedMicros\":1");
                assertThat(client.ask(2, 2, 1_000)).isEqualTo("NO_BID 2 CAMPAIGN_INACTIVE");
                assertThat(client.ask(3, 3, 1_000)).isEqualTo("BID 3");
            }
        }
    }

    @Test
    void shouldRestartWithoutReapplyingAnUnchangedFileAndStillPauseWhatALaterEditRemoves() throws Exception
    {
        final TestPacer first = TestPacer.start(asap(1, 1_000), asap(2, 1_000));
        first.stopKeepingFiles();
        try (TestPacer pacer = TestPacer.restart(first.home, Map.of()))
        {
            assertThat(pacer.get("/campaigns/2").body()).contains("\"status\":\"ACTIVE\"");
            TestPacer.writeCampaigns(pacer.campaignsFile, asap(1, 1_000));
            TestPacer.eventually(Duration.ofSeconds(10), () -> pacer.get("/campaigns/2").body().contains("\"status\":\"PAUSED\""));
            assertThat(pacer.get("/campaigns/1").body()).contains("\"budgetMicros\":1000", "\"status\":\"ACTIVE\"");
            pacer.stopKeepingFiles();
            final long[] updates = new long[1];
            new JournalReader(pacer.journalDir()).read((record, header) ->
            {
                if (record.type() == EventType.CAMPAIGN_UPDATE)
                {
                    updates[0]++;
                }
            }, false);
            assertThat(updates[0]).as("two at the first start, none at the restart, one pause").isEqualTo(3);
        }
    }

    @Test
    void shouldRejectAnInvalidFileWholeAndKeepTheLastGoodState() throws Exception
    {
        try (TestPacer pacer = TestPacer.start(asap(1, 1_000)))
        {
            final long reloads = pacer.server.watcher().reloads();
            // campaign 5 is fine, campaign 1 is not: nothing of the file may be applied
            TestPacer.writeCampaigns(pacer.campaignsFile, asap(5, 1_000), asap(1, -1));
            TestPacer.eventually(Duration.ofSeconds(10), () -> pacer.server.watcher().rejections() == 1);
            assertThat(pacer.get("/campaigns/5").statusCode()).isEqualTo(404);
            assertThat(pacer.get("/campaigns/1").body()).contains("\"budgetMicros\":1000", "\"status\":\"ACTIVE\"");
            Files.writeString(pacer.campaignsFile, "{ not json");
            TestPacer.eventually(Duration.ofSeconds(10), () -> pacer.server.watcher().rejections() == 2);
            TestPacer.writeCampaigns(pacer.campaignsFile, asap(1, 2_000));
            TestPacer.eventually(Duration.ofSeconds(10), () -> pacer.server.watcher().reloads() == reloads + 1);
            assertThat(pacer.get("/campaigns/1").body()).contains("\"budgetMicros\":2000");
        }
    }

    @Test
    void shouldRefuseToStartWithAnInvalidCampaignsFileNamingTheField() throws Exception
    {
        assertThatThrownBy(() -> TestPacer.start(asap(1, 1_000), "{\"id\":2,\"budgetMicros\":1}"))
            .hasMessageContaining("campaigns[1].start: is required");
    }

    @Test
    void shouldStartWithoutTheFileAndPickItUpWhenItAppears() throws Exception
    {
        try (TestPacer pacer = TestPacer.start(Map.of("pacer.campaigns.file", "later.json")))
        {
            assertThat(pacer.get("/campaigns").body()).isEqualTo("{\"campaigns\":[],\"next\":null}");
            TestPacer.writeCampaigns(pacer.home.resolve("later.json"), asap(9, 1_000));
            TestPacer.eventually(Duration.ofSeconds(10), () -> pacer.get("/campaigns/9").statusCode() == 200);
        }
    }

    @Test
    void shouldApplyAnEditAsSoonAsTheSystemReportsItNotAtTheNextPoll() throws Exception
    {
        // polls an hour apart: only the change notice can bring these edits in
        try (TestPacer pacer = TestPacer.start(Map.of("pacer.campaigns.poll-interval", "1h"), asap(1, 1_000), asap(2, 1_000)))
        {
            TestPacer.writeCampaigns(pacer.campaignsFile, asap(1, 1_000), asap(2, 7_000));
            TestPacer.eventually(Duration.ofSeconds(10), () -> pacer.get("/campaigns/2").body().contains("\"budgetMicros\":7000"));
            // written in place, in two pieces: the notice waits for the writes to pause
            final byte[] text = ("{\"campaigns\":[" + asap(1, 3_000) + "," + asap(2, 7_000) + "]}").getBytes(StandardCharsets.UTF_8);
            try (OutputStream out = Files.newOutputStream(pacer.campaignsFile))
            {
                out.write(text, 0, text.length / 2);
                out.flush();
                out.write(text, text.length / 2, text.length - text.length / 2);
            }
            TestPacer.eventually(Duration.ofSeconds(10), () -> pacer.get("/campaigns/1").body().contains("\"budgetMicros\":3000"));
            assertThat(pacer.get("/campaigns/2").body()).contains("\"budgetMicros\":7000", "\"status\":\"ACTIVE\"");
        }
    }
}
