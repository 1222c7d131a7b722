package io.pacer.server;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.json.JsonMapper;
import org.junit.jupiter.api.Test;

import java.io.BufferedWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;

import static io.pacer.server.TestPacer.FAR_FLIGHT;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * A book of 200,000 campaigns (the million of BENCHMARKS.md, scaled to CI): loaded from the file
 * at start, paged through, bid on, restarted from a snapshot without re-applying the file, and
 * one edited campaign applied.
 */
class LargeCampaignBookIntegrationTest
{
    private static final int CAMPAIGNS = 200_000;

    @Test
    void shouldLoadRestartAndEditTwoHundredThousandCampaigns() throws Exception
    {
        final Path home = Files.createTempDirectory("pacer-large");
        write(home.resolve("campaigns.json"), 1_000_000);
        final Map<String, Object> overrides = Map.of("pacer.journal.snapshot-interval", "1h");
        final TestPacer first = TestPacer.restart(home, overrides);
        try
        {
            assertThat(first.get("/campaigns?after=" + (CAMPAIGNS - 1) + "&limit=5").body())
                .contains("\"id\":" + CAMPAIGNS + ",").contains("\"next\":null");
            final JsonNode page = JsonMapper.builder().build().readTree(first.get("/campaigns?limit=1000&pacing=EVEN").body());
            assertThat(page.get("campaigns")).hasSize(1_000);
            assertThat(page.get("next").asLong()).isEqualTo(1_999);
            try (GatewayClient client = first.client())
            {
                assertThat(client.ask(1, 123_457, 1_000)).isEqualTo("BID 1");
            }
            first.server.snapshotNow();
            first.stopKeepingFiles();
        }
        catch (final Exception | Error ex)
        {
            first.close();
            throw ex;
        }
        try (TestPacer restarted = TestPacer.restart(home, overrides))
        {
            assertThat(restarted.campaign(123_457).get("reservedNanos").asLong()).isEqualTo(1_000);
            assertThat(restarted.server.replayedEvents()).as("ticks after the snapshot, not the campaigns").isLessThan(10_000);
            write(restarted.campaignsFile, 2_000_000);
            TestPacer.eventually(Duration.ofSeconds(60),
                () -> restarted.campaign(CAMPAIGNS).get("budgetMicros").asLong() == 2_000_000);
            try (GatewayClient client = restarted.client())
            {
                assertThat(client.ask(2, CAMPAIGNS, 1_000)).isEqualTo("BID 2");
            }
        }
    }

    /** The campaigns file: ids 1 to {@link #CAMPAIGNS}, EVEN and ASAP in turn, the last with its own budget. */
    private static void write(final Path file, final long lastBudgetMicros) throws Exception
    {
        final Path temp = file.resolveSibling("campaigns.json.tmp");
        try (BufferedWriter out = Files.newBufferedWriter(temp, StandardCharsets.UTF_8))
        {
            out.write("{\"campaigns\":[\n");
            for (int id = 1; id <= CAMPAIGNS; id++)
            {
                out.write("{\"id\":" + id + ",\"budgetMicros\":" + (id == CAMPAIGNS ? lastBudgetMicros : 1_000_000) + "," +
                    FAR_FLIGHT + ",\"pacing\":\"" + (id % 2 == 0 ? "ASAP" : "EVEN") + "\"}" + (id < CAMPAIGNS ? ",\n" : "\n"));
            }
            out.write("]}\n");
        }
        Files.move(temp, file, java.nio.file.StandardCopyOption.REPLACE_EXISTING, java.nio.file.StandardCopyOption.ATOMIC_MOVE);
    }
}
