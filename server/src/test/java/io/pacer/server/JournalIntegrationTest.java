package io.pacer.server;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.json.JsonMapper;
import io.pacer.model.PacingShard;
import io.pacer.pipeline.journal.JournalReader;
import io.pacer.pipeline.journal.JournalReplay;
import org.junit.jupiter.api.Test;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintStream;
import java.io.RandomAccessFile;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

import static io.pacer.server.TestPacer.asap;
import static org.assertj.core.api.Assertions.assertThat;

/** The journal of a real server: replay reproduces it, corruption is caught, restarts recover. */
class JournalIntegrationTest
{
    record Run(int exitCode, String out, String err)
    {
    }

    static Run cli(final String... args)
    {
        return cli(new ByteArrayOutputStream(), args);
    }

    /** Runs {@code bin/pacer} with standard output and standard error interleaved in one text, as a terminal shows them. */
    static synchronized String cliInterleaved(final String... args)
    {
        final PrintStream out = System.out;
        final PrintStream err = System.err;
        final ByteArrayOutputStream both = new ByteArrayOutputStream();
        try
        {
            final PrintStream stream = new PrintStream(both, true, StandardCharsets.UTF_8);
            System.setOut(stream);
            System.setErr(stream);
            PacerCli.run(args);
            return both.toString(StandardCharsets.UTF_8);
        }
        finally
        {
            System.setOut(out);
            System.setErr(err);
        }
    }

    /** Runs {@code bin/pacer} with standard output going to {@code stdout} (its text is the run's out if it is a byte array). */
    static synchronized Run cli(final OutputStream stdout, final String... args)
    {
        final PrintStream out = System.out;
        final PrintStream err = System.err;
        final ByteArrayOutputStream stderr = new ByteArrayOutputStream();
        try
        {
            System.setOut(new PrintStream(stdout, true, StandardCharsets.UTF_8));
            System.setErr(new PrintStream(stderr, true, StandardCharsets.UTF_8));
            final int code = PacerCli.run(args);
            return new Run(code, stdout instanceof ByteArrayOutputStream bytes ? bytes.toString(StandardCharsets.UTF_8) : "",
                stderr.toString(StandardCharsets.UTF_8));
        }
        finally
        {
            System.setOut(out);
            System.setErr(err);
        }
    }

    /** Bids on campaigns 1 and 2, wins and losses for some, and a budget change. */
    private static void traffic(final TestPacer pacer) throws Exception
    {
        try (GatewayClient client = pacer.client())
        {
            for (int i = 1; i <= 300; i++)
            {
                client.bid(i, 1 + i % 2, 1_000 + i);
            }
            assertThat(client.send().read(300)).hasSize(300);
            for (int i = 1; i <= 300; i += 3)
            {
                client.win(i, 1 + i % 2, 700 + i);
                client.loss(i + 1, 1 + (i + 1) % 2);
            }
            client.send();
            assertThat(pacer.put("/campaigns/2", asap(2, 200)).statusCode()).isEqualTo(200);
            for (int i = 301; i <= 400; i++)
            {
                client.bid(i, 1 + i % 2, 1_000);
            }
            assertThat(client.send().read(100)).hasSize(100);
        }
    }

    @Test
    void shouldReplayTheJournalWithNoMismatchAndAuditIt() throws Exception
    {
        try (TestPacer pacer = TestPacer.start(asap(1, 1_000_000), asap(2, 100)))
        {
            traffic(pacer);
            final String state = pacer.get("/campaigns/2").body();
            pacer.stopKeepingFiles();

            final Run replay = cli("replay", "--journal", pacer.journalDir().toString(), "--format", "json");
            assertThat(replay.exitCode()).as(replay.err()).isZero();
            final JsonNode audit = JsonMapper.builder().build().readTree(replay.out());
            assertThat(audit.get("mismatches").asLong()).isZero();
            assertThat(audit.get("eventsByType").get("BID_REQUEST").asLong()).isEqualTo(400);
            assertThat(audit.get("eventsByType").get("WIN_NOTICE").asLong()).isEqualTo(100);
            assertThat(audit.get("eventsByType").get("LOSS_NOTICE").asLong()).isEqualTo(100);
            final JsonNode two = audit.get("campaigns").get(1);
            assertThat(two.get("id").asText()).isEqualTo("2");
            assertThat(state).contains("\"spentNanos\":" + two.get("spentNanos").asLong(),
                "\"reservedNanos\":" + two.get("reservedNanos").asLong());
            assertThat(two.get("peakCommittedNanos").asLong()).isLessThanOrEqualTo(200_000);
            assertThat(two.get("noBidsByReason").get("BUDGET_EXHAUSTED").asLong()).isPositive();

            final Run text = cli("replay", "--journal", pacer.journalDir().toString(), "--campaign", "2");
            assertThat(text.exitCode()).isZero();
            assertThat(text.out()).contains("mismatches 0", "BUDGET_EXHAUSTED").doesNotContain("\n1 ");
            final Run lines = cli("replay", "--journal", pacer.journalDir().toString(), "--campaign", "2", "--events");
            assertThat(lines.out().lines()).isNotEmpty().allMatch(l -> l.startsWith("{") && l.contains("\"campaignId\":\"2\""));
        }
    }

    @Test
    void shouldExitOneWhenTheReportCouldNotBeWrittenWhole() throws Exception
    {
        try (TestPacer pacer = TestPacer.start(asap(1, 1_000_000), asap(2, 300)))
        {
            traffic(pacer);
            pacer.stopKeepingFiles();
            final OutputStream fullDisk = new OutputStream()
            {
                @Override
                public void write(final int b) throws IOException
                {
                    throw new IOException("No space left on device");
                }
            };
            for (final String format : List.of("text", "json"))
            {
                final Run replay = cli(fullDisk, "replay", "--journal", pacer.journalDir().toString(), "--format", format);
                assertThat(replay.exitCode()).as(format).isEqualTo(1);
                assertThat(replay.err()).as(format).contains("could not write all of the output to standard output");
            }
            // --events stops the replay at its first lost write rather than replay to the end for nobody
            final Run events = cli(fullDisk, "replay", "--journal", pacer.journalDir().toString(), "--events");
            assertThat(events.exitCode()).isEqualTo(1);
            assertThat(events.err()).contains("the events could not be written", "could not write all of the output to standard output");
        }
    }

    @Test
    void shouldExitWithTheCorruptionCodeAndTheOffsetOfAFlippedByte() throws Exception
    {
        try (TestPacer pacer = TestPacer.start(asap(1, 1_000_000), asap(2, 300)))
        {
            traffic(pacer);
            pacer.stopKeepingFiles();
            final Path segment = JournalReader.segments(pacer.journalDir()).get(0);
            final long size = Files.size(segment);
            try (RandomAccessFile file = new RandomAccessFile(segment.toFile(), "rw"))
            {
                file.seek(size / 2);
                final int b = file.read();
                file.seek(size / 2);
                file.write(b ^ 0x01);
            }
            final Run replay = cli("replay", "--journal", pacer.journalDir().toString());
            assertThat(replay.exitCode()).isEqualTo(ReplayCommand.CORRUPT);
            assertThat(replay.err()).contains(segment.toString(), "at offset ");
            final long offset = Long.parseLong(replay.err().replaceAll("(?s).*at offset (\\d+).*", "$1"));
            assertThat(offset).isBetween(size / 2 - 200, size / 2);
            // the events replayed before the bad record are printed whole, however the replay ends
            final Run events = cli("replay", "--journal", pacer.journalDir().toString(), "--events");
            assertThat(events.exitCode()).isEqualTo(ReplayCommand.CORRUPT);
            final JsonMapper mapper = new JsonMapper();
            assertThat(events.out().lines()).isNotEmpty().allSatisfy(l -> assertThat(mapper.readTree(l).get("sequence")).isNotNull());
            // and before the message that says why the replay stopped
            final List<String> shown = cliInterleaved("replay", "--journal", pacer.journalDir().toString(), "--events").lines().toList();
            assertThat(shown.get(shown.size() - 1)).startsWith("pacer replay: journal corrupt");
            assertThat(shown.subList(0, shown.size() - 1)).isNotEmpty().allMatch(l -> l.startsWith("{\"sequence\""));
        }
    }

    @Test
    void shouldTruncateATornLastRecordAtStartAndCarryOn() throws Exception
    {
        final Path home;
        final String before;
        try (TestPacer pacer = TestPacer.start(asap(1, 1_000_000)))
        {
            try (GatewayClient client = pacer.client())
            {
                assertThat(client.ask(1, 1, 5_000)).isEqualTo("BID 1");
            }
            before = pacer.get("/campaigns/1").body();
            pacer.stopKeepingFiles();
            home = pacer.home;
            final Path segment = JournalReader.segments(pacer.journalDir()).get(0);
            try (RandomAccessFile file = new RandomAccessFile(segment.toFile(), "rw"))
            {
                file.setLength(file.length() - 3);
            }
            try (TestPacer restarted = TestPacer.restart(home, Map.of()))
            {
                final String after = restarted.get("/campaigns/1").body();
                assertThat(after).contains("\"reservedNanos\":5000");
                try (GatewayClient client = restarted.client())
                {
                    assertThat(client.ask(2, 1, 5_000)).isEqualTo("BID 2");
                }
                restarted.stopKeepingFiles();
                assertThat(cli("replay", "--journal", restarted.journalDir().toString()).exitCode()).isZero();
            }
        }
        assertThat(before).contains("\"reservedNanos\":5000");
    }

    @Test
    void shouldRecoverSpentAndReservedAfterARestart() throws Exception
    {
        try (TestPacer pacer = TestPacer.start(asap(1, 1_000_000), asap(2, 300)))
        {
            traffic(pacer);
            final JsonNode before = pacer.campaign(1);
            pacer.stopKeepingFiles();
            try (TestPacer restarted = TestPacer.restart(pacer.home, Map.of()))
            {
                final JsonNode after = restarted.campaign(1);
                assertThat(after.get("spentNanos").asLong()).isEqualTo(before.get("spentNanos").asLong()).isPositive();
                assertThat(after.get("reservedNanos").asLong()).isEqualTo(before.get("reservedNanos").asLong()).isPositive();
                assertThat(after.get("bids").asLong()).isEqualTo(before.get("bids").asLong());
                restarted.stopKeepingFiles();
            }
        }
    }

    private static void moreTraffic(final TestPacer pacer, final long base, final int bids) throws Exception
    {
        try (GatewayClient client = pacer.client())
        {
            for (int done = 0; done < bids; done += 500)
            {
                for (int i = 0; i < 500; i++)
                {
                    client.bid(base + done + i, 1 + i % 3, 900 + i);
                }
                client.send().read(500);
                for (int i = 0; i < 500; i += 4)
                {
                    client.win(base + done + i, 1 + i % 3, 500);
                    client.loss(base + done + i + 1, 1 + (i + 1) % 3);
                }
                client.send();
            }
        }
    }

    private static final String[] FIELDS = {"spentNanos", "reservedNanos", "todaySpentNanos", "bids", "noBids", "wins",
        "losses", "lateWins", "expiredReservations", "openReservations", "budgetMicros"};

    @Test
    void shouldRecoverFromASnapshotPlusTheJournalTailToTheStateOfAFullReplay() throws Exception
    {
        final Map<String, Object> manual = Map.of("pacer.journal.snapshot-interval", "0s");
        try (TestPacer pacer = TestPacer.start(manual, asap(1, 1_000_000), asap(2, 100),
            "{\"id\":3,\"budgetMicros\":5000," + TestPacer.FAR_FLIGHT + ",\"dailyBudgetMicros\":2000}"))
        {
            traffic(pacer);
            moreTraffic(pacer, 10_000, 2_000);
            final Path snapshot = pacer.server.snapshotNow();
            assertThat(snapshot).exists();
            moreTraffic(pacer, 20_000, 2_000);
            assertThat(pacer.put("/campaigns/2", asap(2, 400)).statusCode()).isEqualTo(200);
            moreTraffic(pacer, 30_000, 1_000);
            pacer.stopKeepingFiles();

            final JournalReader reader = new JournalReader(pacer.journalDir());
            final JournalReplay full = JournalReplay.ofJournal(reader, JournalReplay.Observer.NONE);
            final List<PacingShard> shards = full.shards();

            try (TestPacer restarted = TestPacer.restart(pacer.home, manual))
            {
                assertThat(restarted.server.recoveredFromSequence()).isPositive();
                assertThat(restarted.server.replayedEvents()).isLessThan(reader.records());
                for (final long id : new long[] {1, 2, 3})
                {
                    final JsonNode expected = JsonMapper.builder().build().readTree(
                        io.pacer.model.CampaignJson.state(full.campaign(id).snapshot(
                            shards.stream().mapToLong(PacingShard::nowMillis).max().orElseThrow())));
                    final JsonNode actual = restarted.campaign(id);
                    for (final String field : FIELDS)
                    {
                        assertThat(actual.get(field).asLong()).as("campaign %d %s", id, field).isEqualTo(expected.get(field).asLong());
                    }
                }
                restarted.stopKeepingFiles();
            }
        }
    }

    @Test
    void shouldRetireCoveredSegmentsOnlyWhenAskedAndStillRecover() throws Exception
    {
        final Map<String, Object> retire = Map.of("pacer.journal.snapshot-interval", "0s",
            "pacer.journal.segment-size", "1MiB", "pacer.journal.retention", "delete-covered");
        try (TestPacer pacer = TestPacer.start(retire, asap(1, 1_000_000_000), asap(2, 1_000_000_000),
            asap(3, 1_000_000_000)))
        {
            moreTraffic(pacer, 0, 40_000);
            final int segmentsBefore = JournalReader.segments(pacer.journalDir()).size();
            assertThat(segmentsBefore).isGreaterThan(1);
            pacer.server.snapshotNow();
            assertThat(JournalReader.segments(pacer.journalDir())).hasSizeLessThan(segmentsBefore);
            moreTraffic(pacer, 100_000, 1_000);
            final String before = pacer.get("/campaigns/2").body();
            pacer.stopKeepingFiles();
            try (TestPacer restarted = TestPacer.restart(pacer.home, retire))
            {
                final JsonNode expected = JsonMapper.builder().build().readTree(before);
                final JsonNode actual = restarted.campaign(2);
                for (final String field : FIELDS)
                {
                    assertThat(actual.get(field).asLong()).as(field).isEqualTo(expected.get(field).asLong());
                }
                restarted.stopKeepingFiles();
            }
        }
    }

    @Test
    void shouldRefuseToRecoverWithAnotherShardCount() throws Exception
    {
        try (TestPacer pacer = TestPacer.start(asap(1, 1_000_000)))
        {
            traffic(pacer);
            pacer.stopKeepingFiles();
            org.assertj.core.api.Assertions.assertThatThrownBy(
                () -> TestPacer.restart(pacer.home, Map.of("pacer.pipeline.shards", 4)))
                .hasMessageContaining("pacer.pipeline.shards").hasMessageContaining("2 shard(s)");
        }
    }
}
