package io.pacer.server.audit;

import io.pacer.model.CampaignDefinition;
import io.pacer.model.CampaignStatus;
import io.pacer.model.PacingMode;
import io.pacer.model.PacingPolicy;
import io.pacer.pipeline.journal.JournalReader;
import io.pacer.pipeline.journal.JournalReplay;
import io.pacer.pipeline.journal.JournalWriter;
import io.pacer.units.Units;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZonedDateTime;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The export's hourly and daily rollups put each row in the hour and the day its instant falls in,
 * in its campaign's time zone, across daylight-saving changes and half-hour offsets: checked
 * against the rows of {@code events.csv} rolled up afresh, each row's period computed on its own.
 */
class CsvExportTest
{
    private static final ZoneId NEW_YORK = ZoneId.of("America/New_York");
    private static final ZoneId KOLKATA = ZoneId.of("Asia/Kolkata");
    /** Campaign ids and their zones: one id above 2^63, so that rows sort by unsigned id. */
    private static final Map<Long, ZoneId> ZONES = Map.of(1L, NEW_YORK, 2L, ZoneId.of("UTC"), -5L, KOLKATA);
    /** Never defined: its rows roll up in UTC. */
    private static final long UNDEFINED = 9L;

    @TempDir
    Path dir;

    @Test
    void shouldRollEachRowUpInItsCampaignsLocalHourAndDayAcrossClockChanges() throws Exception
    {
        final Path journal = Files.createDirectories(dir.resolve("journal"));
        try (JournalWriter w = new JournalWriter(journal, 0, 1, PacingPolicy.DEFAULT, 1 << 20,
            JournalWriter.FsyncPolicy.NEVER, 100))
        {
            final long start = Instant.parse("2026-03-08T00:00:00Z").toEpochMilli();
            for (final Map.Entry<Long, ZoneId> campaign : new TreeMap<>(ZONES).entrySet())
            {
                w.define(Units.epochMillis(start), new CampaignDefinition(campaign.getKey(), 1_000_000_000_000L, 0,
                    Instant.parse("2026-01-01T00:00:00Z"), Instant.parse("2027-01-01T00:00:00Z"), campaign.getValue(), 0,
                    PacingMode.ASAP, CampaignStatus.ACTIVE));
            }
            final List<Long> campaigns = List.of(1L, 2L, -5L, UNDEFINED);
            long request = 1;
            // New York springs forward at 07:00Z and falls back at 06:00Z; Kolkata's hours begin at half past UTC's.
            // Each campaign's rows across each change come one after another (rows in a row share a zone),
            // then all of them within each millisecond (the zone changes from row to row, the second does not).
            for (final String from : List.of("2026-03-08T06:59:50Z", "2026-03-08T07:29:50Z", "2026-11-01T05:59:50Z"))
            {
                final long t0 = Instant.parse(from).toEpochMilli();
                for (final long campaign : campaigns)
                {
                    for (long t = t0; t < t0 + 20_000; t += 97)
                    {
                        request = row(w, t, request, campaign);
                    }
                }
                for (long t = t0; t < t0 + 20_000; t += 97)
                {
                    for (final long campaign : campaigns)
                    {
                        request = row(w, t, request, campaign);
                    }
                }
            }
        }
        final Path out = dir.resolve("export");
        try (CsvExport csv = new CsvExport(out, new RecordFilter(null, null, Units.MIN_INSTANT, Units.MAX_INSTANT)))
        {
            JournalReplay.ofJournal(new JournalReader(journal), csv);
        }

        final List<String> rows = Files.readAllLines(out.resolve("events.csv"));
        assertThat(rows).hasSizeGreaterThan(1_000);
        assertThat(Files.readAllLines(out.resolve("hourly.csv"))).containsExactlyElementsOf(rollup(rows, ChronoUnit.HOURS));
        assertThat(Files.readAllLines(out.resolve("daily.csv"))).containsExactlyElementsOf(rollup(rows, ChronoUnit.DAYS));
    }

    /** A bid and its notice, a win for two requests in three; returns the next request id. */
    private static long row(final JournalWriter w, final long t, final long request, final long campaign)
    {
        w.bid(Units.epochMillis(t), request, campaign, Units.cpmMicros(1_000_000), 0);
        w.notice(request % 3 != 0, Units.epochMillis(t), request, campaign, Units.cpmMicros(700_000 + request));
        w.endOfBatch();
        return request + 1;
    }

    @Test
    void shouldWriteEachKindOfRowWithAGatewaysNameQuotedAndInUtf8() throws Exception
    {
        final Path journal = EachKindJournal.write(dir.resolve("journal"));
        final Path out = dir.resolve("export");
        try (CsvExport csv = new CsvExport(out, new RecordFilter(null, null, Units.MIN_INSTANT, Units.MAX_INSTANT)))
        {
            JournalReplay.ofJournal(new JournalReader(journal), csv);
        }

        assertThat(Files.readAllLines(out.resolve("events.csv"), StandardCharsets.UTF_8)).containsExactly(
            CsvExport.EVENTS_HEADER,
            "2,2026-03-08T12:00:00Z,BID_REQUEST,7,18446744073709551614,\"zürich \"\"edge\"\" \uD83D\uDE80\",1000000,BID,NONE,1000000,0",
            "3,2026-03-08T12:00:00.001Z,WIN_NOTICE,7,18446744073709551614,\"zürich \"\"edge\"\" \uD83D\uDE80\",800000,,,0,800000",
            "4,2026-03-08T12:00:00.002Z,BID_REQUEST,7,3,\"zürich \"\"edge\"\" \uD83D\uDE80\",2000000,NO_BID,BID_ABOVE_MAX,0,0",
            "5,2026-03-08T12:00:00.002Z,BID_REQUEST,7,4,\"zürich \"\"edge\"\" \uD83D\uDE80\",1000000,BID,NONE,1000000,0",
            "6,2026-03-08T12:00:00.003Z,LOSS_NOTICE,7,4,\"zürich \"\"edge\"\" \uD83D\uDE80\",,,,0,0");
    }

    /** The rollup file {@code rows} (events.csv, header first) make, each row's period found on its own. */
    private static List<String> rollup(final List<String> rows, final ChronoUnit unit)
    {
        record Key(long campaignId, ZonedDateTime start)
        {
        }
        final Map<Key, long[]> periods = new TreeMap<>(Comparator.<Key, Long>comparing(Key::campaignId, Long::compareUnsigned)
            .thenComparing(Key::start));
        for (final String row : rows.subList(1, rows.size()))
        {
            // sequence,time,type,campaign_id,request_id,gateway,cpm_micros,decision,reason,reserved_nanos,booked_nanos
            final String[] cells = row.split(",", -1);
            final long campaign = Long.parseUnsignedLong(cells[3]);
            final ZonedDateTime at = Instant.parse(cells[1]).atZone(ZONES.getOrDefault(campaign, ZoneId.of("UTC")));
            final long[] p = periods.computeIfAbsent(new Key(campaign, at.truncatedTo(unit)), k -> new long[5]);
            switch (cells[2])
            {
                case "BID_REQUEST" -> p["BID".equals(cells[7]) ? 0 : 1]++;
                case "WIN_NOTICE" -> {
                    p[2]++;
                    p[4] += Long.parseLong(cells[10]);
                }
                default -> p[3]++;
            }
        }
        final List<String> lines = new ArrayList<>();
        lines.add(CsvExport.ROLLUP_HEADER);
        periods.forEach((k, p) -> lines.add(Long.toUnsignedString(k.campaignId()) + "," + k.start().toOffsetDateTime() + "," + p[0] + "," + p[1] +
            "," + p[2] + "," + p[3] + "," + p[4] + "," + Amounts.decimal(p[4])));
        return lines;
    }
}
