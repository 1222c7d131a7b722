package io.pacer.server.audit;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.pacer.model.CampaignDefinition;
import io.pacer.model.CampaignSnapshot;
import io.pacer.model.DecisionExplanation;
import io.pacer.model.PacingShard;
import io.pacer.pipeline.EventType;
import io.pacer.pipeline.journal.JournalRecord;
import io.pacer.pipeline.journal.JournalReplay;
import io.pacer.wire.Reason;

import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * {@code pacer replay --explain REQUEST_ID}: for each bid with that request id (request ids are
 * the gateway's, so several connections may have used one; {@code --campaign} and
 * {@code --gateway} narrow it), the decision, the rule that gave it and the numbers it compared,
 * taken from the replayed shard the moment it decided.
 */
public final class Explainer implements JournalReplay.Observer
{
    /** One explained bid, with where it sits in the journal. */
    private record Explained(long sequence, long epochMillis, String gateway, long campaignId, Reason recorded,
        DecisionExplanation why)
    {
    }

    private final long requestId;
    private final RecordFilter filter;
    private final List<Explained> explained = new ArrayList<>();

    public Explainer(final long requestId, final RecordFilter filter)
    {
        this.requestId = requestId;
        this.filter = filter;
    }

    @Override
    public void applied(final JournalRecord record, final Reason replayed, final PacingShard shard)
    {
        if (record.type() != EventType.BID_REQUEST || record.requestId() != requestId || !filter.matches(record))
        {
            return;
        }
        explained.add(new Explained(record.sequence(), record.epochMillis(), record.gatewayName(), record.campaignId(), Reason.get((short)record.reason()),
            DecisionExplanation.of(shard.campaign(record.campaignId()), shard.nowMillis(), record.cpmMicros(), replayed)));
    }

    public String text()
    {
        final StringBuilder text = new StringBuilder(512);
        for (final Explained e : explained)
        {
            final DecisionExplanation why = e.why;
            text.append(String.format(Locale.ROOT, "request %s, campaign %s, gateway \"%s\", sequence %d, at %s: %s%n",
                Long.toUnsignedString(requestId), Long.toUnsignedString(e.campaignId), e.gateway, e.sequence,
                Instant.ofEpochMilli(e.epochMillis), why.reason() == Reason.NONE ? "BID" : "NO_BID " + why.reason().name()));
            if (e.recorded != why.reason())
            {
                text.append(String.format(Locale.ROOT, "  MISMATCH  the journal recorded %s%n", e.recorded.name()));
            }
            text.append("  rule      ").append(why.rule()).append('\n');
            text.append(String.format(Locale.ROOT, "  bid       %d CPM micros: one impression costs %s%n", why.bidCpmMicros(),
                Amounts.decimal(why.costNanos())));
            final CampaignDefinition d = why.definition();
            if (d == null)
            {
                continue;
            }
            text.append(String.format(Locale.ROOT, "  campaign  %s, %s, flight %s .. %s, time zone %s, max bid %s%n",
                d.pacing(), d.status(), d.start(), d.end(), d.timeZone().getId(),
                d.maxBidCpmMicros() == 0 ? "none" : d.maxBidCpmMicros() + " CPM micros"));
            text.append(String.format(Locale.ROOT, "  budget    %s; committed %s (spent %s + reserved %s); left %s%n",
                Amounts.decimal(why.budgetNanos()), Amounts.decimal(why.committedNanos()), Amounts.decimal(why.spentNanos()),
                Amounts.decimal(why.reservedNanos()), Amounts.decimal(why.budgetNanos() - why.committedNanos())));
            text.append(String.format(Locale.ROOT, "  day       %s; today committed %s (spent today %s + reserved %s); daily cap %s%n",
                day(why),
                Amounts.decimal(why.todayCommittedNanos()), Amounts.decimal(why.todaySpentNanos()),
                Amounts.decimal(why.reservedNanos()), why.dailyBudgetNanos() == 0 ? "none" : Amounts.decimal(why.dailyBudgetNanos())));
            text.append(String.format(Locale.ROOT, "  plan      flight line at this instant %s; day line %s%n",
                plan(why.plannedNanos()), plan(why.dailyPlannedNanos())));
        }
        if (explained.isEmpty())
        {
            text.append("no bid with request id ").append(Long.toUnsignedString(requestId)).append(" in the journal\n");
        }
        return text.toString();
    }

    public String json()
    {
        final ArrayNode array = JsonNodeFactory.instance.arrayNode();
        for (final Explained e : explained)
        {
            final DecisionExplanation why = e.why;
            final ObjectNode node = array.addObject();
            node.put("sequence", e.sequence);
            node.put("time", Instant.ofEpochMilli(e.epochMillis).toString());
            node.put("gateway", e.gateway);
            node.put("requestId", Long.toUnsignedString(requestId));
            node.put("campaignId", Long.toUnsignedString(e.campaignId));
            node.put("decision", why.reason() == Reason.NONE ? "BID" : "NO_BID");
            node.put("reason", why.reason().name());
            node.put("recordedReason", e.recorded.name());
            node.put("rule", why.rule());
            node.put("bidCpmMicros", why.bidCpmMicros());
            node.put("costNanos", why.costNanos());
            if (why.definition() != null)
            {
                node.put("budgetNanos", why.budgetNanos());
                node.put("spentNanos", why.spentNanos());
                node.put("reservedNanos", why.reservedNanos());
                node.put("committedNanos", why.committedNanos());
                node.put("dailyBudgetNanos", why.dailyBudgetNanos());
                node.put("todaySpentNanos", why.todaySpentNanos());
                node.put("todayCommittedNanos", why.todayCommittedNanos());
                if (why.dayStartMillis() < why.dayEndMillis())
                {
                    node.put("dayStart", Instant.ofEpochMilli(why.dayStartMillis()).toString());
                    node.put("dayEnd", Instant.ofEpochMilli(why.dayEndMillis()).toString());
                }
                planNode(node, "plannedNanos", why.plannedNanos());
                planNode(node, "dailyPlannedNanos", why.dailyPlannedNanos());
            }
        }
        return array.toString();
    }

    private static void planNode(final ObjectNode node, final String name, final long nanos)
    {
        if (nanos == CampaignSnapshot.NO_PLAN)
        {
            node.putNull(name);
        }
        else
        {
            node.put(name, nanos);
        }
    }

    private static String day(final DecisionExplanation why)
    {
        return why.dayStartMillis() < why.dayEndMillis() ?
            Instant.ofEpochMilli(why.dayStartMillis()) + " .. " + Instant.ofEpochMilli(why.dayEndMillis()) :
            "not reached (no bid got as far as the budget checks yet)";
    }

    private static String plan(final long nanos)
    {
        return nanos == CampaignSnapshot.NO_PLAN ? "none" : Amounts.decimal(nanos);
    }
}
