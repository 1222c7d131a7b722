package io.pacer.server.audit;

import com.fasterxml.jackson.core.JsonGenerator;
import io.pacer.model.Money;
import io.pacer.pipeline.EventType;
import io.pacer.pipeline.journal.JournalRecord;

import java.io.IOException;
import java.util.Map;
import java.util.TreeMap;

/**
 * {@code pacer replay}'s account per gateway identity: what each sent, as the journal records it
 * (version 4 segments on; older ones, and gateways without a client certificate, are "").
 */
final class GatewayReport
{
    /** What one identity sent. */
    private static final class Sender
    {
        long bidRequests;
        long bids;
        long wins;
        long losses;
        /** Its wins' clearing prices, summed, in nanos (a CPM micro is a nano per impression). */
        long notifiedNanos;
    }

    private final Map<String, Sender> senders = new TreeMap<>();
    /**
     * The last record's sender: records come in runs from one gateway, and the reader hands over one
     * name object per gateway, which {@code equals} matches by identity first; the map, ordered by
     * name for the report, compares strings.
     */
    private String lastName;
    private Sender lastSender;

    /** Counts a bid, win or loss record. */
    void count(final JournalRecord record)
    {
        final String name = record.gatewayName();
        if (!name.equals(lastName))
        {
            lastSender = senders.computeIfAbsent(name, any -> new Sender());
            lastName = name;
        }
        final Sender sender = lastSender;
        if (record.type() == EventType.BID_REQUEST)
        {
            sender.bidRequests++;
            sender.bids += record.reason() == 0 ? 1 : 0;
        }
        else if (record.type() == EventType.WIN_NOTICE)
        {
            sender.wins++;
            sender.notifiedNanos = Money.saturatingAdd(sender.notifiedNanos, record.cpmMicros());
        }
        else
        {
            sender.losses++;
        }
    }

    void text(final StringBuilder text)
    {
        final TextTable gateways = new TextTable("gateway", "bid requests", "bids", "wins", "losses", "notified spend");
        senders.forEach((name, g) -> gateways.row(name.isEmpty() ? "(anonymous)" : name, g.bidRequests, g.bids, g.wins,
            g.losses, Amounts.micros(g.notifiedNanos)));
        gateways.appendTo(text);
        text.append(System.lineSeparator());
    }

    /** Writes the senders as a JSON array, one object each, in name order. */
    void json(final JsonGenerator json) throws IOException
    {
        json.writeStartArray();
        for (final Map.Entry<String, Sender> sender : senders.entrySet())
        {
            final Sender g = sender.getValue();
            json.writeStartObject();
            json.writeStringField("gateway", sender.getKey());
            json.writeNumberField("bidRequests", g.bidRequests);
            json.writeNumberField("bids", g.bids);
            json.writeNumberField("wins", g.wins);
            json.writeNumberField("losses", g.losses);
            json.writeNumberField("notifiedNanos", g.notifiedNanos);
            json.writeEndObject();
        }
        json.writeEndArray();
    }
}
