package io.pacer.server.audit;

import com.fasterxml.jackson.core.JsonGenerator;
import io.pacer.model.CampaignBook;
import io.pacer.model.CampaignDefinition;
import io.pacer.model.Money;
import io.pacer.model.PacingPolicy;
import io.pacer.model.PacingShard;
import io.pacer.model.ShardRouter;
import io.pacer.pipeline.EventType;
import io.pacer.pipeline.PacingStep;
import io.pacer.pipeline.journal.JournalHeader;
import io.pacer.pipeline.journal.JournalRecord;
import io.pacer.pipeline.journal.JournalReplay;
import io.pacer.pipeline.journal.NoticeCensus;
import io.pacer.wire.Reason;
import org.agrona.collections.Long2LongCounterMap;
import org.agrona.collections.Long2ObjectHashMap;

import java.io.IOException;
import java.io.PrintStream;
import java.time.Duration;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * {@code pacer replay --what-if}: the recorded traffic replayed a second time, alongside the audit's
 * replay, into shards with a {@link WhatIfChange} applied, and the two outcomes side by side per
 * campaign: delivery, overspend and slot RMSE. Recorded decisions are not compared: they are
 * expected to differ.
 *
 * <p>The exchange's answers exist only for what really happened, so: a notice for a request the
 * what-if run did not bid on is dropped (that impression would not have been bought); a what-if
 * BID the recording has no notice for has no known outcome, and its reservation expires after the
 * TTL. Such BIDs are counted, with their cost, which bounds the extra spend they could have made.
 */
public final class WhatIf implements JournalReplay.Observer
{
    /** A bid's identity, as notices name it. */
    private record Request(long requestId, long campaignId)
    {
    }

    /** One side's figures for one campaign. */
    private static final class Outcome
    {
        long bids;
        long noBids;
        long spentNanos;
        /** Booked spend per slot of the flight, by slot index (0 for a slot with none). */
        final Long2LongCounterMap slots = new Long2LongCounterMap(0);
    }

    /** Both sides for one campaign, and its definitions at the end. */
    private static final class Campaign
    {
        final Outcome happened = new Outcome();
        final Outcome whatIf = new Outcome();
        CampaignDefinition recorded;
        CampaignDefinition changed;
    }

    private final WhatIfChange change;
    private final RecordFilter filter;
    private final long slotMillis;
    private final Set<Request> notBidInWhatIf = new HashSet<>();
    /** By campaign id, looked up for every record: sorted only for the report ({@link #reported}). */
    private final Long2ObjectHashMap<Campaign> campaigns = new Long2ObjectHashMap<>();
    private List<PacingShard> shards;
    private ShardRouter router;
    private PacingPolicy recordedPolicy;
    private PacingPolicy policy;
    private long firstMillis = Long.MAX_VALUE;
    private long lastMillis = Long.MIN_VALUE;
    private long decided;
    private long bidToNoBid;
    private long noBidToBid;
    private long noBidToBidCostNanos;
    private long droppedNotices;

    public WhatIf(final WhatIfChange change, final RecordFilter filter, final Duration slot)
    {
        this.change = change;
        this.filter = filter;
        this.slotMillis = slot.toMillis();
        if (slotMillis <= 0)
        {
            throw new IllegalArgumentException("--slot must be positive, was " + slot);
        }
    }

    /**
     * Makes the what-if shards, and sizes their dedupe tables as the audit's replay sizes its own if
     * the change keeps the recorded dedupe window (the census counted the notices of that window),
     * within an eighth of the heap (the audit's own take up to a quarter).
     */
    @Override
    public void begin(final JournalHeader header, final NoticeCensus census)
    {
        recordedPolicy = header.policy();
        policy = change.policy(header.policy()); // a setting this journal's tunables rule out: WhatIfChange.Invalid
        shards = JournalReplay.freshShards(header.shards(), policy);
        router = new ShardRouter(header.shards());
        if (policy.noticeDedupeWindowMillis() == recordedPolicy.noticeDedupeWindowMillis())
        {
            JournalReplay.expectNotices(shards, census, Runtime.getRuntime().maxMemory() / 8);
        }
    }

    /**
     * Touches what {@link #applied} will read of a block in the what-if run, through the replay's own
     * {@link JournalReplay#touchBlock}; its own campaigns too from as many as a shard's books are
     * touched from ({@link PacingShard#TOUCH_FROM_CAMPAIGNS}).
     */
    @Override
    public long touch(final JournalRecord[] block, final int count)
    {
        long read = JournalReplay.touchBlock(shards, router, block, count);
        if (campaigns.size() < PacingShard.TOUCH_FROM_CAMPAIGNS)
        {
            return read;
        }
        for (int i = 0; i < count; i++)
        {
            final Campaign campaign = campaigns.get(block[i].campaignId());
            read += campaign == null ? 0 : campaign.happened.bids;
        }
        return read;
    }

    @Override
    public void applied(final JournalRecord r, final Reason replayed, final PacingShard actual)
    {
        firstMillis = Math.min(firstMillis, r.epochMillis());
        lastMillis = Math.max(lastMillis, r.epochMillis());
        final EventType type = r.type();
        if (type.broadcast())
        {
            shards.forEach(shard -> PacingStep.apply(shard, type, 0, 0, 0, r.epochMillis(), null));
            return;
        }
        final PacingShard shard = shards.get(router.shardOf(r.campaignId()));
        final Campaign campaign = campaigns.get(r.campaignId());
        switch (type)
        {
            case CAMPAIGN_UPDATE -> {
                // the audit's replay has just applied it: its book holds the recorded definition
                final CampaignDefinition recorded = actual.campaign(r.campaignId()).definition();
                final Campaign c = campaigns.computeIfAbsent(recorded.id(), id -> new Campaign());
                c.recorded = recorded;
                c.changed = change.definition(recorded);
                PacingStep.apply(shard, type, 0, recorded.id(), 0, r.epochMillis(), c.changed);
            }
            case BID_REQUEST -> bid(r, shard, campaign);
            default -> notice(r, shard, actual, campaign);
        }
    }

    private void bid(final JournalRecord r, final PacingShard shard, final Campaign campaign)
    {
        if (r.reason() == Reason.OVERLOADED.value())
        {
            return; // shed before evaluation: neither run decided it
        }
        final boolean happened = r.reason() == 0;
        final boolean whatIf = PacingStep.apply(shard, EventType.BID_REQUEST, r.requestId(), r.campaignId(), r.cpmMicros(),
            r.epochMillis(), null) == Reason.NONE;
        decided++;
        if (happened && !whatIf)
        {
            bidToNoBid++;
            notBidInWhatIf.add(new Request(r.requestId(), r.campaignId()));
        }
        else if (!happened && whatIf)
        {
            noBidToBid++;
            noBidToBidCostNanos = Money.saturatingAdd(noBidToBidCostNanos, Money.impressionCostNanos(r.cpmMicros()));
        }
        if (campaign != null && filter.matches(r))
        {
            count(campaign.happened, happened);
            count(campaign.whatIf, whatIf);
        }
    }

    private static void count(final Outcome o, final boolean bid)
    {
        if (bid)
        {
            o.bids++;
        }
        else
        {
            o.noBids++;
        }
    }

    private void notice(final JournalRecord r, final PacingShard shard, final PacingShard actual, final Campaign campaign)
    {
        final boolean win = r.type() == EventType.WIN_NOTICE;
        final CampaignBook actualBook = actual.campaign(r.campaignId());
        if (campaign != null && win && actualBook != null)
        {
            book(campaign.happened, actualBook.spentNanos(), r);
        }
        if (!notBidInWhatIf.isEmpty() && notBidInWhatIf.contains(new Request(r.requestId(), r.campaignId())))
        {
            droppedNotices++;
            return;
        }
        PacingStep.apply(shard, r.type(), r.requestId(), r.campaignId(), r.cpmMicros(), r.epochMillis(), null);
        final CampaignBook book = shard.campaign(r.campaignId());
        if (campaign != null && win && book != null)
        {
            book(campaign.whatIf, book.spentNanos(), r);
        }
    }

    /**
     * Books the spend a win added ({@code spentNow} less what the outcome had) in its slot. Slots
     * are counted from the epoch (whole hours of UTC for 1 h slots), the same grid for both runs
     * whatever either defines as the flight.
     */
    private void book(final Outcome o, final long spentNow, final JournalRecord r)
    {
        final long booked = spentNow - o.spentNanos;
        o.spentNanos = spentNow;
        if (booked != 0 && filter.matches(r))
        {
            o.slots.getAndAdd(Math.floorDiv(r.epochMillis(), slotMillis), booked);
        }
    }

    /** Bids whose what-if decision differs from the recorded one. */
    public long changedDecisions()
    {
        return bidToNoBid + noBidToBid;
    }

    /**
     * Prints the comparison as text to {@code out}, the campaigns' table as it is laid out (two rows a
     * campaign): a million campaigns' table, made into one string first, was copied three times over.
     */
    public void printText(final PrintStream out)
    {
        final StringBuilder text = new StringBuilder(1024);
        text.append(String.format(Locale.ROOT, "what if   %s%n", change.description()));
        text.append(String.format(Locale.ROOT, "pacing    recorded %s%n          what-if  %s%n", recordedPolicy == null ? "-" :
            recordedPolicy.tunables(), policy == null ? "-" : policy.tunables()));
        text.append(String.format(Locale.ROOT, "decisions %,d re-decided, %,d changed: BID to NO_BID %,d, NO_BID to BID %,d%n",
            decided, changedDecisions(), bidToNoBid, noBidToBid));
        text.append(String.format(Locale.ROOT, "notices   %,d dropped (their request was not bid on in the what-if run)%n", droppedNotices));
        text.append(String.format(Locale.ROOT, "unknown   %,d new BIDs have no recorded outcome; had they all won, up to %s more spend%n%n",
            noBidToBid, Amounts.decimal(noBidToBidCostNanos)));
        final TextTable campaigns = new TextTable("campaign", "run", "delivered", "of budget", "overspend", "slot RMSE", "bids",
            "no-bids");
        for (final long id : reported())
        {
            final Campaign c = this.campaigns.get(id);
            row(campaigns, Long.toUnsignedString(id), "before", c.happened, c.recorded);
            row(campaigns, "", "after", c.whatIf, c.changed);
        }
        out.append(text);
        campaigns.printTo(out);
        out.append(String.format(Locale.ROOT, "%nslot RMSE: the root mean square of each %s slot's spend less the flight's even share"
            + " of the budget per slot, as a share of that; over the slots the journal covers%n", Duration.ofMillis(slotMillis)));
    }

    private void row(final TextTable campaigns, final String id, final String run, final Outcome o, final CampaignDefinition d)
    {
        final long budgetNanos = Money.microsToNanos(d.budgetMicros());
        campaigns.row(id, run, Amounts.decimal(o.spentNanos), Amounts.tenths(100.0 * o.spentNanos / budgetNanos) + "%",
            Amounts.decimal(Math.max(0, o.spentNanos - budgetNanos)), percent(rmse(o, d)), o.bids, o.noBids);
    }

    /** Writes the comparison as one JSON object, and a newline, to {@code out}, as it goes ({@link JsonReports}). */
    public void printJson(final PrintStream out)
    {
        JsonReports.print(out, json ->
        {
            json.writeStartObject();
            json.writeStringField("whatIf", change.description());
            json.writeNumberField("decided", decided);
            json.writeNumberField("changedDecisions", changedDecisions());
            json.writeNumberField("bidToNoBid", bidToNoBid);
            json.writeNumberField("noBidToBid", noBidToBid);
            json.writeNumberField("noBidToBidCostNanos", noBidToBidCostNanos);
            json.writeNumberField("droppedNotices", droppedNotices);
            json.writeArrayFieldStart("campaigns");
            for (final long id : reported())
            {
                final Campaign c = campaigns.get(id);
                json.writeStartObject();
                json.writeStringField("id", Long.toUnsignedString(id));
                json.writeFieldName("happened");
                outcome(json, c.happened, c.recorded);
                json.writeFieldName("whatIf");
                outcome(json, c.whatIf, c.changed);
                json.writeEndObject();
            }
            json.writeEndArray();
            json.writeEndObject();
        });
    }

    private void outcome(final JsonGenerator json, final Outcome o, final CampaignDefinition d) throws IOException
    {
        final long budgetNanos = Money.microsToNanos(d.budgetMicros());
        json.writeStartObject();
        json.writeStringField("pacing", d.pacing().name());
        json.writeNumberField("budgetNanos", budgetNanos);
        json.writeNumberField("spentNanos", o.spentNanos);
        json.writeNumberField("overspendNanos", Math.max(0, o.spentNanos - budgetNanos));
        final double rmse = rmse(o, d);
        if (Double.isNaN(rmse))
        {
            json.writeNullField("slotRmse");
        }
        else
        {
            json.writeNumberField("slotRmse", rmse);
        }
        json.writeNumberField("bids", o.bids);
        json.writeNumberField("noBids", o.noBids);
        json.writeEndObject();
    }

    private static String percent(final double share)
    {
        return Double.isNaN(share) ? "-" : Amounts.tenths(100 * share) + "%";
    }

    /** The reported campaigns' ids, in unsigned order: every campaign, or the filter's one. */
    private long[] reported()
    {
        if (filter.campaignId() != null)
        {
            return campaigns.containsKey(filter.campaignId()) ? new long[] {filter.campaignId()} : new long[0];
        }
        final long[] ids = new long[campaigns.size()];
        int n = 0;
        for (final Long2ObjectHashMap<Campaign>.KeyIterator keys = campaigns.keySet().iterator(); keys.hasNext(); )
        {
            ids[n++] = keys.nextLong();
        }
        return CampaignAudits.unsignedOrder(ids);
    }

    /**
     * The slot RMSE of one outcome: over the slots of the flight the journal (and the report's
     * window) covers, the root mean square of each slot's spend less an even share of the budget,
     * as a share of that even share; NaN when no whole slot is covered.
     */
    private double rmse(final Outcome o, final CampaignDefinition d)
    {
        final long start = d.start().toEpochMilli();
        final long flightMillis = d.end().toEpochMilli() - start;
        final long from = Math.max(Math.max(firstMillis, filter.fromMillis()), start);
        final long to = Math.min(Math.min(lastMillis + 1, filter.toMillis()), d.end().toEpochMilli());
        if (to <= from)
        {
            return Double.NaN;
        }
        final double evenShare = (double)Money.microsToNanos(d.budgetMicros()) * slotMillis / flightMillis;
        // whole slots only: from the first that starts at or after `from` to the last that ends by `to` (exclusive)
        final long first = -Math.floorDiv(-from, slotMillis);
        final long last = Math.floorDiv(to, slotMillis) - 1;
        if (last < first)
        {
            return Double.NaN;
        }
        double sumSquares = 0;
        for (long slot = first; slot <= last; slot++)
        {
            final double miss = o.slots.get(slot) - evenShare;
            sumSquares += miss * miss;
        }
        return Math.sqrt(sumSquares / (last - first + 1)) / evenShare;
    }
}
