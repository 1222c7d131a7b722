package io.pacer.server.audit;

import io.pacer.model.CampaignDefinition;
import io.pacer.model.CampaignStatus;
import io.pacer.model.PacingMode;
import io.pacer.model.PacingPolicy;
import io.pacer.pipeline.GatewayIds;
import io.pacer.pipeline.journal.JournalWriter;
import io.pacer.units.Units;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.time.ZoneId;

/**
 * A journal of each kind of record the audit tools print, from 2026-03-08T12:00:00Z on: campaign 7
 * defined (most bid 1.5 CPM), a BID won (request 2^64 - 2), a NO_BID above the most (request 3), and a
 * BID lost (request 4), all from one gateway whose name needs quoting and escaping, and holds a
 * character past the Basic Multilingual Plane.
 */
final class EachKindJournal
{
    /** The gateway every record comes from. */
    static final String GATEWAY = "zürich \"edge\" \uD83D\uDE80";

    private EachKindJournal()
    {
    }

    /** Writes the journal into {@code dir} (made if missing) and returns it. */
    static Path write(final Path dir) throws Exception
    {
        final Path journal = Files.createDirectories(dir);
        final GatewayIds gateways = new GatewayIds();
        final int gateway = gateways.register(GATEWAY);
        final long t = Instant.parse("2026-03-08T12:00:00Z").toEpochMilli();
        try (JournalWriter w = new JournalWriter(journal, 0, 1, PacingPolicy.DEFAULT, 1 << 20,
            JournalWriter.FsyncPolicy.NEVER, 100, gateways))
        {
            w.define(Units.epochMillis(t), new CampaignDefinition(7, 1_000_000_000L, 0, Instant.parse("2026-01-01T00:00:00Z"),
                Instant.parse("2027-01-01T00:00:00Z"), ZoneId.of("UTC"), 1_500_000, PacingMode.ASAP, CampaignStatus.ACTIVE));
            w.bid(Units.epochMillis(t), -2L, 7, Units.cpmMicros(1_000_000), 0, gateway);
            w.notice(true, Units.epochMillis(t + 1), -2L, 7, Units.cpmMicros(800_000), gateway);
            w.bid(Units.epochMillis(t + 2), 3L, 7, Units.cpmMicros(2_000_000), 5, gateway);
            w.bid(Units.epochMillis(t + 2), 4L, 7, Units.cpmMicros(1_000_000), 0, gateway);
            w.notice(false, Units.epochMillis(t + 3), 4L, 7, Units.cpmMicros(0), gateway);
            w.endOfBatch();
        }
        return journal;
    }
}
