package io.pacer.server.audit;

import io.pacer.model.CampaignDefinition;
import io.pacer.model.CampaignStatus;
import io.pacer.model.PacingMode;
import io.pacer.model.PacingPolicy;
import io.pacer.model.PacingShard;
import io.pacer.pipeline.GatewayIds;
import io.pacer.pipeline.journal.JournalReader;
import io.pacer.pipeline.journal.JournalRecord;
import io.pacer.pipeline.journal.JournalReplay;
import io.pacer.pipeline.journal.JournalWriter;
import io.pacer.units.Units;
import io.pacer.wire.Reason;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.time.ZoneId;

import static org.assertj.core.api.Assertions.assertThat;

/** The audit reports the same whether or not its rows are touched ahead of each block. */
class AuditReportTest
{
    private static final RecordFilter EVERYTHING = new RecordFilter(null, null, Units.MIN_INSTANT, Units.MAX_INSTANT);

    @TempDir
    Path dir;

    @Test
    void shouldReportTheSameWhenItsRowsAreTouchedAheadAsWhenTheyAreNot() throws Exception
    {
        // enough campaigns for the audit to touch its rows (and the shard its books)
        final int campaigns = PacingShard.TOUCH_FROM_CAMPAIGNS + 100;
        final Path journal = Files.createDirectories(dir.resolve("journal"));
        final long t = Instant.parse("2026-03-08T12:00:00Z").toEpochMilli();
        try (JournalWriter w = new JournalWriter(journal, 0, 1, PacingPolicy.DEFAULT, 1 << 24,
            JournalWriter.FsyncPolicy.NEVER, 100))
        {
            for (int id = 1; id <= campaigns; id++)
            {
                w.define(Units.epochMillis(t), new CampaignDefinition(id, 1_000_000L, 0, Instant.parse("2026-01-01T00:00:00Z"),
                    Instant.parse("2027-01-01T00:00:00Z"), ZoneId.of("UTC"), 0, PacingMode.ASAP, CampaignStatus.ACTIVE));
            }
            long request = 0;
            for (int round = 0; round < 3; round++)
            {
                for (int id = 1; id <= campaigns + 10; id += 7)
                {
                    // campaigns past the last defined one are unknown: their rows are made, never touched first
                    w.bid(Units.epochMillis(t + 1 + round), ++request, id, Units.cpmMicros(400_000_000), id <= campaigns ? 0 : 1);
                    w.notice(request % 2 == 0, Units.epochMillis(t + 1 + round), request, id, Units.cpmMicros(300_000_000));
                }
            }
            w.endOfBatch();
        }

        final AuditReport touched = new AuditReport(EVERYTHING, null);
        final JournalReplay replay = JournalReplay.ofJournal(new JournalReader(journal), touched);
        final AuditReport untouched = new AuditReport(EVERYTHING, null);
        final JournalReplay plain = JournalReplay.ofJournal(new JournalReader(journal), new JournalReplay.Observer()
        {
            @Override
            public void applied(final JournalRecord record, final Reason replayed, final PacingShard shard)
            {
                untouched.applied(record, replayed, shard);
            }
        });

        final String report = json(touched, journal, replay);
        assertThat(report).contains("{\"id\":\"" + campaigns + "\",\"known\":true", "\"known\":false");
        assertThat(report).isEqualTo(json(untouched, journal, plain));
    }

    @Test
    void shouldCountAnotherGatewaysBidInThePeakSeenAtAFilteredGatewaysLoss() throws Exception
    {
        // gateway "other" reserves 0.4 of campaign 7's budget and its answer stays open; "feed"
        // bids and loses: an audit of "feed" alone first looks at the book after other's bid at
        // feed's loss, which must look
        final Path journal = Files.createDirectories(dir.resolve("journal"));
        final long t = Instant.parse("2026-03-08T12:00:00Z").toEpochMilli();
        final GatewayIds gateways = new GatewayIds();
        final int feed = gateways.register("feed");
        final int other = gateways.register("other");
        try (JournalWriter w = new JournalWriter(journal, 0, 1, PacingPolicy.DEFAULT, 1 << 24,
            JournalWriter.FsyncPolicy.NEVER, 100, gateways))
        {
            w.define(Units.epochMillis(t), new CampaignDefinition(7, 1_000_000L, 0, Instant.parse("2026-01-01T00:00:00Z"),
                Instant.parse("2027-01-01T00:00:00Z"), ZoneId.of("UTC"), 0, PacingMode.ASAP, CampaignStatus.ACTIVE));
            w.bid(Units.epochMillis(t + 1), 1, 7, Units.cpmMicros(100_000_000), 0, feed);
            w.bid(Units.epochMillis(t + 2), 2, 7, Units.cpmMicros(400_000_000), 0, other);
            w.notice(false, Units.epochMillis(t + 3), 1, 7, Units.cpmMicros(0), feed);
            w.endOfBatch();
        }
        final AuditReport all = new AuditReport(EVERYTHING, null);
        final JournalReplay replayAll = JournalReplay.ofJournal(new JournalReader(journal), all);
        final AuditReport feedOnly = new AuditReport(new RecordFilter(null, "feed", Units.MIN_INSTANT, Units.MAX_INSTANT), null);
        final JournalReplay replayFeed = JournalReplay.ofJournal(new JournalReader(journal), feedOnly);

        // 0.1 + 0.4 reserved at once; feed's own records see 0.1 at its bid and, after its loss
        // released that, other's 0.4 (not 0.1, as if its loss were skipped)
        assertThat(json(all, journal, replayAll)).contains("\"peakCommittedNanos\":500000000");
        assertThat(json(feedOnly, journal, replayFeed)).contains("\"peakCommittedNanos\":400000000");
    }

    private static String json(final AuditReport audit, final Path journal, final JournalReplay replay)
    {
        final ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        audit.printJson(journal, new JournalReader(journal), replay, new PrintStream(bytes, true, StandardCharsets.UTF_8));
        return bytes.toString(StandardCharsets.UTF_8);
    }
}
