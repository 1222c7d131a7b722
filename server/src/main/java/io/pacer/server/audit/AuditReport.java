package io.pacer.server.audit;

import com.fasterxml.jackson.core.JsonGenerator;
import io.pacer.model.CampaignBook;
import io.pacer.model.Money;
import io.pacer.model.PacingShard;
import io.pacer.model.ShardCounters;
import io.pacer.pipeline.EventType;
import io.pacer.pipeline.journal.JournalReader;
import io.pacer.pipeline.journal.JournalRecord;
import io.pacer.pipeline.journal.JournalReplay;
import io.pacer.wire.Reason;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Path;
import java.util.function.ToLongFunction;

/**
 * {@code pacer replay}'s audit: events by type and, per campaign, bids, NO_BIDs by reason, wins,
 * spend, budget, the peak of spent + reserved against the budget, and late wins; with
 * {@code --events}, each matching event and its re-made decision as a JSON line as it is replayed.
 */
public final class AuditReport implements JournalReplay.Observer
{
    private final RecordFilter filter;
    private final EventLines events;
    private final long[] byType = new long[8];
    private final CampaignAudits audits = new CampaignAudits();
    private final GatewayReport senders = new GatewayReport();
    /** The rows' offsets of the block being touched. */
    private final long[] blockOffsets = new long[JournalReplay.BLOCK];

    /**
     * @param events where to write each matching event as a JSON line, or null for none
     */
    public AuditReport(final RecordFilter filter, final EventLines events)
    {
        this.filter = filter;
        this.events = events;
    }

    @Override
    public long touch(final JournalRecord[] block, final int count)
    {
        // fewer rows (under 3 MB) stay in cache, as a shard's books do, and touching them only repeats each lookup
        if (audits.size() < PacingShard.TOUCH_FROM_CAMPAIGNS)
        {
            return 0;
        }
        // the map's entries, then the rows they lead to: each loop's misses independent of each other
        // (one loop of both left each row's miss waiting on its entry's: 1.4x the touch's samples)
        for (int i = 0; i < count; i++)
        {
            blockOffsets[i] = audits.offsetOf(block[i].campaignId());
        }
        long read = 0;
        for (int i = 0; i < count; i++)
        {
            read += audits.touchRow(blockOffsets[i]);
        }
        return read;
    }

    @Override
    public void applied(final JournalRecord record, final Reason replayed, final PacingShard shard)
    {
        byType[record.type().ordinal()]++;
        if (!filter.concerns(record))
        {
            return;
        }
        final boolean inWindow = filter.inWindow(record);
        if (record.type().fromGateway() && inWindow)
        {
            senders.count(record);
        }
        final int row = audits.row(record.campaignId());
        // a loss releases a reservation or nothing: spent + reserved never rises at one, so the book
        // (a second lookup of the record's campaign) is not read for it, unless a gateway filter
        // leaves out the other gateways' bids, after which this loss may be the first look
        final CampaignBook book = record.type() == EventType.LOSS_NOTICE && filter.gateway() == null ? null :
            shard.campaign(record.campaignId());
        if (book != null)
        {
            audits.peakCommitted(row, Money.saturatingAdd(book.spentNanos(), book.reservedNanos()));
        }
        if (inWindow && record.type() == EventType.BID_REQUEST)
        {
            if (record.reason() == 0)
            {
                audits.countBid(row);
            }
            else
            {
                audits.countNoBid(row, record.reason());
            }
        }
        else if (inWindow && record.type() == EventType.WIN_NOTICE)
        {
            audits.countWin(row);
        }
        if (events != null && inWindow)
        {
            events.write(record, replayed);
        }
    }

    /** Prints the report as text to {@code out}, the campaigns' table as it is laid out (a row per campaign). */
    public void printText(final Path journal, final JournalReader reader, final JournalReplay replay, final PrintStream out)
    {
        // appended, not String.format: the one Formatter of a replay was ~10 ms of its start-up
        final String newline = System.lineSeparator();
        final StringBuilder text = new StringBuilder(1024);
        text.append("journal ").append(journal).append(": ").append(Amounts.grouped(reader.records())).append(" events, ")
            .append(reader.tornTailOffset() >= 0 ? "torn tail at " + reader.tornTailFile() + ":" + reader.tornTailOffset() : "no torn tail")
            .append(newline);
        text.append("events     ");
        for (final EventType t : EventType.journaled())
        {
            text.append(' ').append(t.name()).append(' ').append(Amounts.grouped(byType[t.ordinal()]));
        }
        text.append(newline).append("decisions   re-made and compared: mismatches ")
            .append(Amounts.grouped(replay == null ? 0 : replay.mismatches())).append(newline);
        text.append("notices     resent and booked once: duplicates ")
            .append(Amounts.grouped(notices(replay, ShardCounters::duplicateNotices)))
            .append(", wins after a loss ").append(Amounts.grouped(notices(replay, ShardCounters::conflictingNotices)))
            .append(newline).append(newline);
        senders.text(text);
        final TextTable campaigns = new TextTable(
            "campaign", "budget", "spent", "late wins", "bids", "wins", "peak spent+reserved", "no-bids by reason");
        for (final long id : audits.idsInOrder())
        {
            final int a = audits.existingRow(id);
            final CampaignBook book = replay.campaign(id);
            final long budgetNanos = book == null ? 0 : Money.microsToNanos(book.definition().budgetMicros());
            campaigns.row(Long.toUnsignedString(id),
                book == null ? "unknown" : Amounts.micros(budgetNanos), book == null ? "-" : Amounts.micros(book.spentNanos()),
                book == null ? "-" : Long.toString(book.lateWins()), audits.bids(a), audits.wins(a),
                budgetNanos == 0 ? "-" : Amounts.percent(audits.peakCommittedNanos(a), budgetNanos) + "% of budget",
                noBids(a));
        }
        out.append(text);
        campaigns.printTo(out);
    }

    /** Writes the report as one JSON object, and a newline, to {@code out}, as it goes ({@link JsonReports}). */
    public void printJson(final Path journal, final JournalReader reader, final JournalReplay replay, final PrintStream out)
    {
        JsonReports.print(out, json ->
        {
            json.writeStartObject();
            json.writeStringField("journal", journal.toString());
            json.writeNumberField("events", reader.records());
            json.writeNumberField("tornTailOffset", reader.tornTailOffset());
            json.writeObjectFieldStart("eventsByType");
            for (final EventType t : EventType.journaled())
            {
                json.writeNumberField(t.name(), byType[t.ordinal()]);
            }
            json.writeEndObject();
            json.writeNumberField("mismatches", replay == null ? 0 : replay.mismatches());
            json.writeNumberField("duplicateNotices", notices(replay, ShardCounters::duplicateNotices));
            json.writeNumberField("conflictingNotices", notices(replay, ShardCounters::conflictingNotices));
            json.writeFieldName("gateways");
            senders.json(json);
            json.writeArrayFieldStart("campaigns");
            for (final long id : audits.idsInOrder())
            {
                campaignJson(json, id, audits.existingRow(id), replay.campaign(id));
            }
            json.writeEndArray();
            json.writeEndObject();
        });
    }

    private void campaignJson(final JsonGenerator json, final long id, final int a, final CampaignBook book) throws IOException
    {
        json.writeStartObject();
        json.writeStringField("id", Long.toUnsignedString(id));
        json.writeBooleanField("known", book != null);
        if (book != null)
        {
            json.writeNumberField("budgetMicros", book.definition().budgetMicros());
            json.writeNumberField("spentNanos", book.spentNanos());
            json.writeNumberField("reservedNanos", book.reservedNanos());
            json.writeNumberField("lateWins", book.lateWins());
            json.writeNumberField("peakCommittedNanos", audits.peakCommittedNanos(a));
        }
        json.writeNumberField("bids", audits.bids(a));
        json.writeNumberField("wins", audits.wins(a));
        json.writeObjectFieldStart("noBidsByReason");
        for (int r = 1; r < CampaignAudits.reasonCodes(); r++)
        {
            if (audits.noBids(a, r) > 0)
            {
                json.writeNumberField(Reason.get((short)r).name(), audits.noBids(a, r));
            }
        }
        json.writeEndObject();
        json.writeEndObject();
    }

    private static long notices(final JournalReplay replay, final ToLongFunction<ShardCounters> count)
    {
        return replay == null ? 0 : replay.shards().stream().mapToLong(shard -> count.applyAsLong(shard.counters())).sum();
    }

    private String noBids(final int a)
    {
        final StringBuilder s = new StringBuilder();
        for (int r = 1; r < CampaignAudits.reasonCodes(); r++)
        {
            if (audits.noBids(a, r) > 0)
            {
                s.append(Reason.get((short)r).name()).append(' ').append(audits.noBids(a, r)).append(' ');
            }
        }
        return s.length() == 0 ? "-" : s.toString().trim();
    }

}
