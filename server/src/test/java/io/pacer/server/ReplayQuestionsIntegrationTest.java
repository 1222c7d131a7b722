package io.pacer.server;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.json.JsonMapper;
import io.pacer.model.CampaignDefinitionParser;
import io.pacer.model.PacingPolicy;
import io.pacer.pipeline.journal.JournalWriter;
import io.pacer.server.JournalIntegrationTest.Run;
import io.pacer.units.Units;
import io.pacer.wire.Reason;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

import static io.pacer.server.JournalIntegrationTest.cli;
import static io.pacer.server.TestPacer.FAR_FLIGHT;
import static io.pacer.server.TestPacer.asap;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@code pacer replay}'s questions on the journal of a real server: a campaign at an instant
 * against the admin API's answer at that instant, why each bid got its reason, what-if runs, and
 * the CSV export against the audit and the admin API.
 */
class ReplayQuestionsIntegrationTest
{
    private static final JsonMapper JSON = JsonMapper.builder().build();
    private static final String EVEN = "{\"id\":3,\"budgetMicros\":1000000," + FAR_FLIGHT + ",\"pacing\":\"EVEN\"}";

    private static TestPacer pacer;
    private static String journal;
    /** Campaign 1 as the admin API showed it between the two halves of the traffic. */
    private static String midway;
    /** Every campaign as the admin API showed it after all the traffic. */
    private static final Map<Long, JsonNode> FINAL = new HashMap<>();

    /** One server, traffic in two halves with an admin read between them, then stopped. */
    @BeforeAll
    static void recordTraffic() throws Exception
    {
        pacer = TestPacer.start(asap(1, 1_000_000), asap(2, 5), EVEN, asap(4, 1_000, "\"status\":\"PAUSED\""),
            asap(5, 1_000_000, "\"maxBidCpmMicros\":500"));
        try (GatewayClient client = pacer.client())
        {
            half(client, 1);
            Thread.sleep(30);
            midway = pacer.get("/campaigns/1").body();
            Thread.sleep(30);
            half(client, 1_001);
            // one of each reason the shards give: 1001 BID, 1002 UNKNOWN_CAMPAIGN, 1003 CAMPAIGN_INACTIVE,
            // 1004 BUDGET_EXHAUSTED (one impression costs more than campaign 2's 5 micros), 1005 PACING, 1006 BID_ABOVE_MAX,
            // 1007 INVALID_REQUEST
            assertThat(client.bid(10_001, 1, 1_000).bid(10_002, 99, 1_000).bid(10_003, 4, 1_000).bid(10_004, 2, 6_000)
                .bid(10_005, 3, 1_000).bid(10_006, 5, 1_000).bid(10_007, 1, 0).send().read(7)).containsExactly(
                    "BID 10001", "NO_BID 10002 UNKNOWN_CAMPAIGN", "NO_BID 10003 CAMPAIGN_INACTIVE",
                    "NO_BID 10004 BUDGET_EXHAUSTED", "NO_BID 10005 PACING", "NO_BID 10006 BID_ABOVE_MAX",
                    "NO_BID 10007 INVALID_REQUEST");
            // a win at price 0 as campaign 5's first spend (the export once refused to remember a spend of 0);
            // the bid behind it on the same connection is answered after the win is applied
            assertThat(client.win(10_006, 5, 0).bid(10_008, 1, 1_000).send().read(1)).containsExactly("BID 10008");
        }
        for (long id = 1; id <= 5; id++)
        {
            FINAL.put(id, pacer.campaign(id));
        }
        pacer.stopKeepingFiles();
        journal = pacer.journalDir().toString();
    }

    /** Bids on campaigns 1, 2 and 3 from {@code first}; a loss for every fourth request id, wins for the rest. */
    private static void half(final GatewayClient client, final int first) throws IOException
    {
        for (int i = first; i < first + 300; i++)
        {
            client.bid(i, 1 + i % 3, 1_000 + i % 7);
        }
        final List<String> answers = client.send().read(300);
        for (final String answer : answers)
        {
            if (answer.startsWith("BID "))
            {
                final int request = Integer.parseInt(answer.substring(4));
                if (request % 4 == 0)
                {
                    client.loss(request, 1 + request % 3);
                }
                else
                {
                    client.win(request, 1 + request % 3, 700 + request % 11);
                }
            }
        }
        client.send();
    }

    @AfterAll
    static void deleteFiles() throws IOException
    {
        pacer.close();
    }

    @Test
    void shouldPrintACampaignAtAnInstantExactlyAsTheAdminApiShowedItThen() throws Exception
    {
        final String asOf = JSON.readTree(midway).get("asOf").asText();
        final Run run = cli("replay", "--journal", journal, "--until", asOf, "--campaign", "1", "--format", "json");
        assertThat(run.exitCode()).as(run.err()).isZero();
        assertThat(run.out().trim()).isEqualTo(midway.trim());
        assertThat(JSON.readTree(midway).get("spentNanos").asLong()).isPositive()
            .isLessThan(FINAL.get(1L).get("spentNanos").asLong());

        final Run text = cli("replay", "--journal", journal, "--until", asOf, "--campaign", "1");
        assertThat(text.out()).contains("campaign 1 at " + asOf, "spent", "reserved", "spent today", "open reservation",
            "plan line");
    }

    @Test
    void shouldExplainEveryReasonWithTheRuleAndTheNumbersItCompared() throws Exception
    {
        final Map<Long, String> rules = Map.of(
            10_001L, "every check passed",
            10_002L, "no campaign with this id",
            10_003L, "status was PAUSED",
            10_004L, "did not fit in the budget less committed spend",
            10_005L, "ahead of the flight's plan line",
            10_006L, "above the campaign's maximum, 500",
            10_007L, "must be positive");
        for (final Map.Entry<Long, String> e : rules.entrySet())
        {
            final Run run = cli("replay", "--journal", journal, "--explain", e.getKey().toString(), "--format", "json");
            assertThat(run.exitCode()).as(run.err()).isZero();
            final JsonNode why = JSON.readTree(run.out());
            assertThat(why).as("request %d", e.getKey()).hasSize(1);
            assertThat(why.get(0).get("rule").asText()).contains(e.getValue());
            assertThat(why.get(0).get("reason").asText()).isEqualTo(why.get(0).get("recordedReason").asText());
        }
        final JsonNode exhausted = JSON.readTree(cli("replay", "--journal", journal, "--explain", "10004", "--format", "json")
            .out()).get(0);
        assertThat(exhausted.get("budgetNanos").asLong()).isEqualTo(5_000);
        assertThat(exhausted.get("budgetNanos").asLong() - exhausted.get("committedNanos").asLong())
            .isLessThan(exhausted.get("costNanos").asLong());
        final JsonNode pacing = JSON.readTree(cli("replay", "--journal", journal, "--explain", "10005", "--format", "json")
            .out()).get(0);
        assertThat(pacing.get("committedNanos").asLong()).isGreaterThan(pacing.get("plannedNanos").asLong());

        final Run text = cli("replay", "--journal", journal, "--explain", "10004");
        assertThat(text.out()).contains("NO_BID BUDGET_EXHAUSTED", "rule", "budget    0.000005", "committed", "plan");
    }

    @Test
    void shouldExplainABidShedBeforeEvaluation(@TempDir final Path dir) throws Exception
    {
        try (JournalWriter writer = new JournalWriter(dir, 0, 1, PacingPolicy.DEFAULT, 1 << 20,
            JournalWriter.FsyncPolicy.NEVER, Units.durationMillis(100)))
        {
            final long now = Units.epochMillis(Instant.parse("2026-06-01T00:00:00Z").toEpochMilli());
            writer.define(now, CampaignDefinitionParser.parseJson(asap(1, 1_000)));
            writer.bid(now, 77, 1, 1_000, Reason.OVERLOADED.value());
            writer.endOfBatch();
        }
        final Run run = cli("replay", "--journal", dir.toString(), "--explain", "77");
        assertThat(run.exitCode()).as(run.err()).isZero();
        assertThat(run.out()).contains("NO_BID OVERLOADED", "shed before evaluation");
    }

    @Test
    void shouldFindNoDifferenceWhenTheWhatIfChangesNothing() throws Exception
    {
        final Run run = cli("replay", "--journal", journal, "--what-if", "pacing.replan-interval=1s", "--format", "json");
        assertThat(run.exitCode()).as(run.err()).isZero();
        final JsonNode report = JSON.readTree(run.out());
        assertThat(report.get("decided").asLong()).isGreaterThan(600);
        assertThat(report.get("changedDecisions").asLong()).isZero();
        assertThat(report.get("droppedNotices").asLong()).isZero();
        for (final JsonNode campaign : report.get("campaigns"))
        {
            assertThat(campaign.get("whatIf")).as("campaign %s", campaign.get("id")).isEqualTo(campaign.get("happened"));
        }
        assertThat(report.get("campaigns").get(0).get("happened").get("spentNanos").asLong())
            .isEqualTo(FINAL.get(1L).get("spentNanos").asLong());
    }

    @Test
    void shouldShowWhatAnotherModeWouldHaveDeliveredBesideWhatHappened(@TempDir final Path dir) throws Exception
    {
        final Run asap = cli("replay", "--journal", journal, "--what-if", "campaign.pacing=ASAP", "--campaign", "3",
            "--format", "json");
        assertThat(asap.exitCode()).as(asap.err()).isZero();
        final JsonNode report = JSON.readTree(asap.out());
        assertThat(report.get("noBidToBid").asLong()).isPositive();
        final JsonNode three = report.get("campaigns").get(0);
        assertThat(three.get("happened").get("pacing").asText()).isEqualTo("EVEN");
        assertThat(three.get("whatIf").get("pacing").asText()).isEqualTo("ASAP");
        assertThat(three.get("whatIf").get("bids").asLong()).isGreaterThan(three.get("happened").get("bids").asLong());

        final Path file = dir.resolve("what-if.json");
        Files.writeString(file, "{\"campaigns\":[" + asap(1, 1) + "]}");
        final Run starved = cli("replay", "--journal", journal, "--what-if-campaign", file.toString(), "--campaign", "1");
        assertThat(starved.exitCode()).as(starved.err()).isZero();
        assertThat(starved.out()).contains("BID to NO_BID", "before", "after", "slot RMSE");
        assertThat(starved.out()).doesNotContain("BID to NO_BID 0,");
    }

    @Test
    void shouldExportRowsWhoseSumsEqualTheAuditAndTheAdminApi(@TempDir final Path dir) throws Exception
    {
        final Run export = cli("replay", "--journal", journal, "--export", "csv", dir.toString(), "--format", "json");
        assertThat(export.exitCode()).as(export.err()).isZero();
        final JsonNode audit = JSON.readTree(export.out());
        final List<String> events = Files.readAllLines(dir.resolve("events.csv"));
        assertThat(events.get(0)).startsWith("sequence,time,type,campaign_id");
        final JsonNode byType = audit.get("eventsByType");
        assertThat(events).hasSize(1 + byType.get("BID_REQUEST").asInt() + byType.get("WIN_NOTICE").asInt() +
            byType.get("LOSS_NOTICE").asInt());
        final Map<String, Long> daily = sums(dir.resolve("daily.csv"), 6);
        final Map<String, Long> hourly = sums(dir.resolve("hourly.csv"), 6);
        final Map<String, Long> dailyWins = sums(dir.resolve("daily.csv"), 4);
        final Map<String, Long> dailyBids = sums(dir.resolve("daily.csv"), 2);
        assertThat(hourly).isEqualTo(daily);
        for (final JsonNode campaign : audit.get("campaigns"))
        {
            final String id = campaign.get("id").asText();
            if (!campaign.get("known").asBoolean())
            {
                continue;
            }
            assertThat(daily.getOrDefault(id, 0L)).as("campaign %s", id).isEqualTo(campaign.get("spentNanos").asLong())
                .isEqualTo(FINAL.get(Long.parseLong(id)).get("spentNanos").asLong());
            assertThat(dailyWins.getOrDefault(id, 0L)).isEqualTo(campaign.get("wins").asLong());
            assertThat(dailyBids.getOrDefault(id, 0L)).isEqualTo(campaign.get("bids").asLong());
        }
        assertThat(daily.get("1")).isPositive();
        assertThat(Files.readAllLines(dir.resolve("daily.csv")).get(1)).matches("1,\\d{4}-\\d\\d-\\d\\dT00:00Z,.*");
    }

    /** Per campaign id, the sum of one column of a rollup file. */
    private static Map<String, Long> sums(final Path file, final int column) throws IOException
    {
        return Files.readAllLines(file).stream().skip(1).map(line -> line.split(","))
            .collect(Collectors.groupingBy(f -> f[0], Collectors.summingLong(f -> Long.parseLong(f[column]))));
    }

    @Test
    void shouldRefuseQuestionsItCannotAnswerWithAUsageError() throws Exception
    {
        assertThat(cli("replay", "--journal", journal, "--until", "2026-01-01T00:00:00Z").err()).contains("--until needs --campaign");
        final Run parquet = cli("replay", "--journal", journal, "--export", "parquet", "/tmp/x");
        assertThat(parquet.exitCode()).isEqualTo(2);
        assertThat(parquet.err()).contains("only csv", "DuckDB");
        final Run unknown = cli("replay", "--journal", journal, "--what-if", "pacing.replan=5s");
        assertThat(unknown.exitCode()).isEqualTo(2);
        assertThat(unknown.err()).contains("unknown setting \"pacing.replan\"", "pacing.replan-interval");
        final Run mode = cli("replay", "--journal", journal, "--what-if", "campaign.pacing=SMOOTH");
        assertThat(mode.exitCode()).isEqualTo(2);
        assertThat(mode.err()).contains("campaign.pacing must be one of");
        assertThat(cli("replay", "--journal", journal, "--explain", "1", "--until", "2026-01-01T00:00:00Z", "--campaign", "1")
            .exitCode()).isEqualTo(2);
        final Run policy = cli("replay", "--journal", journal, "--what-if", "pacing.replan-interval=2h");
        assertThat(policy.exitCode()).isEqualTo(2);
        assertThat(policy.err()).contains("--what-if", "replanIntervalMillis", "recorded:");
    }

    /**
     * The directory above a journal (a home's data directory) is refused with a pointer to the
     * journal in it, not audited as a quiet day; a directory where nothing was journaled is audited
     * as empty, and said to be.
     */
    @Test
    void shouldPointFromTheDirectoryAboveAJournalToTheJournalInIt(@TempDir final Path dir) throws Exception
    {
        final Path above = Path.of(journal).getParent(); // the test server's home/data, holding home/data/journal
        assertThat(Path.of(journal).getFileName()).hasToString("journal");
        final Run refused = cli("replay", "--journal", above.toString());
        assertThat(refused.exitCode()).isEqualTo(2);
        assertThat(refused.err()).contains("no journal segments", "did you mean --journal " + above.resolve("journal"));
        assertThat(refused.out()).isEmpty();

        final Path empty = Files.createDirectory(dir.resolve("empty"));
        final Run nothing = cli("replay", "--journal", empty.toString());
        assertThat(nothing.exitCode()).as(nothing.err()).isZero();
        assertThat(nothing.err()).contains("nothing was journaled there");
        assertThat(nothing.out()).contains("0 events");
    }
}
