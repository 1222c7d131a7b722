package io.pacer.server.audit;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.pacer.pipeline.journal.JournalReader;
import io.pacer.pipeline.journal.JournalReplay;
import io.pacer.units.Units;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@code --events} writes each matching event as one line of JSON in UTF-8, with its re-made
 * decision if it is a bid, and holds them in its buffer until flushed.
 */
class EventLinesTest
{
    private static final RecordFilter EVERYTHING = new RecordFilter(null, null, Units.MIN_INSTANT, Units.MAX_INSTANT);

    @TempDir
    Path dir;

    @Test
    void shouldWriteEachKindOfEventAsALineOfJsonInUtf8() throws Exception
    {
        final ByteArrayOutputStream out = new ByteArrayOutputStream();
        final EventLines lines = new EventLines(out);
        JournalReplay.ofJournal(new JournalReader(EachKindJournal.write(dir.resolve("journal"))), new AuditReport(EVERYTHING, lines));
        assertThat(out.size()).as("held until flushed").isZero();
        lines.flush();

        final List<String> written = out.toString(StandardCharsets.UTF_8).lines().toList();
        assertThat(written).hasSize(6);
        final JsonNode update = new ObjectMapper().readTree(written.get(0));
        assertThat(update.get("type").asText()).isEqualTo("CAMPAIGN_UPDATE");
        assertThat(new ObjectMapper().readTree(update.get("definition").asText()).get("id").asLong()).isEqualTo(7);
        assertThat(written.get(0)).startsWith(
            "{\"sequence\":0,\"time\":\"2026-03-08T12:00:00Z\",\"type\":\"CAMPAIGN_UPDATE\",\"campaignId\":\"7\",\"definition\":\"{");
        assertThat(written.subList(1, 6)).containsExactly(
            "{\"sequence\":2,\"time\":\"2026-03-08T12:00:00Z\",\"type\":\"BID_REQUEST\",\"campaignId\":\"7\","
                + "\"requestId\":\"18446744073709551614\",\"gateway\":\"zürich \\\"edge\\\" \uD83D\uDE80\",\"bidCpmMicros\":1000000,"
                + "\"decision\":\"BID\",\"reason\":\"NONE\",\"replayedReason\":\"NONE\"}",
            "{\"sequence\":3,\"time\":\"2026-03-08T12:00:00.001Z\",\"type\":\"WIN_NOTICE\",\"campaignId\":\"7\","
                + "\"requestId\":\"18446744073709551614\",\"gateway\":\"zürich \\\"edge\\\" \uD83D\uDE80\",\"priceCpmMicros\":800000}",
            "{\"sequence\":4,\"time\":\"2026-03-08T12:00:00.002Z\",\"type\":\"BID_REQUEST\",\"campaignId\":\"7\","
                + "\"requestId\":\"3\",\"gateway\":\"zürich \\\"edge\\\" \uD83D\uDE80\",\"bidCpmMicros\":2000000,"
                + "\"decision\":\"NO_BID\",\"reason\":\"BID_ABOVE_MAX\",\"replayedReason\":\"BID_ABOVE_MAX\"}",
            "{\"sequence\":5,\"time\":\"2026-03-08T12:00:00.002Z\",\"type\":\"BID_REQUEST\",\"campaignId\":\"7\","
                + "\"requestId\":\"4\",\"gateway\":\"zürich \\\"edge\\\" \uD83D\uDE80\",\"bidCpmMicros\":1000000,"
                + "\"decision\":\"BID\",\"reason\":\"NONE\",\"replayedReason\":\"NONE\"}",
            "{\"sequence\":6,\"time\":\"2026-03-08T12:00:00.003Z\",\"type\":\"LOSS_NOTICE\",\"campaignId\":\"7\","
                + "\"requestId\":\"4\",\"gateway\":\"zürich \\\"edge\\\" \uD83D\uDE80\"}");
    }

    @Test
    void shouldWriteOnlyTheEventsTheFilterMatches() throws Exception
    {
        final ByteArrayOutputStream out = new ByteArrayOutputStream();
        final EventLines lines = new EventLines(out);
        final RecordFilter from = new RecordFilter(7L, null, Units.epochMillis(Instant.parse("2026-03-08T12:00:00.002Z").toEpochMilli()),
            Units.MAX_INSTANT);
        JournalReplay.ofJournal(new JournalReader(EachKindJournal.write(dir.resolve("journal"))), new AuditReport(from, lines));
        lines.flush();

        assertThat(out.toString(StandardCharsets.UTF_8).lines().map(l -> l.substring(0, l.indexOf(','))))
            .containsExactly("{\"sequence\":4", "{\"sequence\":5", "{\"sequence\":6");
    }
}
