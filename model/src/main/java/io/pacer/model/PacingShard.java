package io.pacer.model;

import io.pacer.units.CpmMicros;
import io.pacer.units.CurrencyNanos;
import io.pacer.units.EpochMillis;
import io.pacer.units.Units;
import io.pacer.wire.Reason;

import java.util.Comparator;
import java.util.List;

/**
 * All the pacing state of one shard and the rules that change it: the campaigns it owns, their
 * budgets and plans, and the open reservations. One thread drives it with events in ring order;
 * it reads no clock (time is the events' timestamps, never running backwards) and iterates
 * nothing in hash order, so the same events always give the same answers.
 *
 * <p>Over 300 lines because it is the whole of a shard's rules, one method per input (bid, win, loss,
 * define, tick), plus its snapshot and page reads; the data structures live in {@link
 * ReservationBook}, {@link SettledNotices}, {@code CampaignTable} and {@code CampaignOrder}, the per-campaign money in
 * {@link CampaignBook}.
 */
public final class PacingShard
{
    /**
     * Below this many campaigns a shard's books stay in cache, and touching them ahead of a batch
     * only repeats each lookup (~15 ns a bid live; in a replay of 10M events with 1,000 campaigns,
     * 7% of the main thread): the live handlers (or the shared loop for them), cluster mode's service
     * and the replay touch books from here on.
     */
    public static final int TOUCH_FROM_CAMPAIGNS = 1 << 15;
    /**
     * Lookups of each kind (books, reservations, notices) {@link #note} notes at most between two
     * {@link #touchNoted}s; past it, a note is dropped (the touch is only a hint). A live batch's
     * read-ahead, cluster mode's block of an ingress batch, and twice a replay's block.
     */
    public static final int NOTED = 64;

    private final PacingPolicy policy;
    private final CampaignTable campaigns = new CampaignTable();
    private final ReservationBook reservations;
    private final SettledNotices settled;
    private final ShardCounters counters = new ShardCounters();
    private @EpochMillis long nowMillis = Units.MIN_INSTANT;
    private final CampaignOrder order = new CampaignOrder();

    /** @param pooledReservations reservations made up front (see {@link ReservationBook#ReservationBook}) */
    public PacingShard(final PacingPolicy policy, final int pooledReservations)
    {
        this.policy = policy;
        this.reservations = new ReservationBook(pooledReservations);
        this.settled = new SettledNotices(policy.noticeDedupeWindowMillis());
    }

    /**
     * Decides one bid request and, on BID, reserves its cost.
     *
     * @return {@link Reason#NONE} for BID, otherwise the NO_BID reason
     */
    public Reason bid(final long requestId, final long campaignId, final @CpmMicros long bidCpmMicros,
        final @EpochMillis long eventMillis)
    {
        advanceTo(eventMillis);
        final Reason reason;
        final CampaignBook campaign;
        if (bidCpmMicros <= 0)
        {
            reason = Reason.INVALID_REQUEST;
        }
        else if ((campaign = campaigns.get(campaignId)) == null)
        {
            reason = Reason.UNKNOWN_CAMPAIGN;
        }
        else
        {
            reason = campaign.decide(nowMillis, bidCpmMicros);
            if (reason == Reason.NONE)
            {
                final @CurrencyNanos long costNanos = Money.impressionCostNanos(bidCpmMicros);
                reservations.open(requestId, campaignId, campaign, costNanos, Units.plus(nowMillis,
                    policy.reservationTtlMillis()));
                counters.reservedNanos += costNanos;
                counters.openReservations++;
            }
        }
        counters.decisionsByReason[reason.value()]++;
        return reason;
    }

    /**
     * Books a win notice once: releases its reservation if open, and books the price as spent. A
     * win already booked for this request within the dedupe window is counted and ignored; a win
     * after a settled loss is booked and counted as conflicting.
     */
    public void win(final long requestId, final long campaignId, final @CpmMicros long priceCpmMicros,
        final @EpochMillis long eventMillis)
    {
        advanceTo(eventMillis);
        final CampaignBook campaign = campaigns.get(campaignId);
        if (campaign == null)
        {
            counters.unknownCampaignNotices++;
            return;
        }
        if (priceCpmMicros < 0)
        {
            counters.invalidNotices++;
            return;
        }
        final int before = settled.outcome(requestId, campaignId);
        if (before == SettledNotices.WON)
        {
            counters.duplicateNotices++;
            return;
        }
        final Reservation r = reservations.take(requestId, campaignId);
        if (r != null)
        {
            campaign.bookWin(nowMillis, priceCpmMicros, r.costNanos);
            released(r);
            counters.matchedWins++;
        }
        else
        {
            campaign.bookWin(nowMillis, priceCpmMicros, CampaignBook.NO_RESERVATION);
            if (before == SettledNotices.LOST)
            {
                counters.conflictingNotices++;
            }
            else
            {
                counters.lateWins++;
            }
        }
        settled.settle(requestId, campaignId, true, nowMillis);
        counters.bookedNanos = Money.saturatingAdd(counters.bookedNanos, Money.impressionCostNanos(priceCpmMicros));
    }

    /**
     * Settles a loss notice once: releases its reservation if open. A loss for a request already
     * settled (won or lost) within the dedupe window changes nothing and is counted.
     */
    public void loss(final long requestId, final long campaignId, final @EpochMillis long eventMillis)
    {
        advanceTo(eventMillis);
        if (settled.outcome(requestId, campaignId) != SettledNotices.NONE)
        {
            counters.duplicateNotices++;
            return;
        }
        final Reservation r = reservations.take(requestId, campaignId);
        if (r != null)
        {
            r.campaign.release(r.costNanos, false);
            released(r);
            counters.losses++;
        }
        else if (campaigns.get(campaignId) != null)
        {
            counters.unmatchedLosses++;
        }
        else
        {
            counters.unknownCampaignNotices++;
            return;
        }
        settled.settle(requestId, campaignId, false, nowMillis);
    }

    /** Creates or replaces a campaign's definition. Spent and reserved money survive. */
    public void define(final CampaignDefinition definition, final @EpochMillis long eventMillis)
    {
        advanceTo(eventMillis);
        final CampaignBook campaign = campaigns.get(definition.id());
        if (campaign == null)
        {
            campaigns.add(new CampaignBook(definition, policy));
        }
        else
        {
            countStatus(campaign.definition().status(), -1);
            campaign.redefine(definition);
        }
        countStatus(definition.status(), 1);
        counters.definitions++;
    }

    private void countStatus(final CampaignStatus status, final int delta)
    {
        if (status == CampaignStatus.ACTIVE)
        {
            counters.activeCampaigns += delta;
        }
        else
        {
            counters.pausedCampaigns += delta;
        }
    }

    /**
     * A capacity hint for a bulk load: this shard is about to hold at least {@code campaigns}
     * campaigns, so its table makes room for them at once instead of growing step by step. Changes
     * no decision and no output (the table's capacity is never observable).
     */
    public void expectCampaigns(final int campaigns)
    {
        this.campaigns.ensureCapacity(campaigns);
    }

    /**
     * A capacity hint for a replay: this shard's dedupe window will hold about {@code notices} at
     * most, so its table grows straight to that size when it first fills ({@link SettledNotices#expect}).
     * While it is given, the window also defers the index's side of expiry to sweeps; 0 withdraws it,
     * which a recovery must do before the shard serves live traffic. Changes no decision and no output.
     */
    public void expectNotices(final int notices)
    {
        settled.expect(notices);
    }

    /** Lets time pass: expires reservations whose deadline has come, and settled notices past the window. */
    public void tick(final @EpochMillis long eventMillis)
    {
        advanceTo(eventMillis);
    }

    private void advanceTo(final @EpochMillis long eventMillis)
    {
        if (eventMillis > nowMillis)
        {
            nowMillis = eventMillis;
        }
        Reservation r;
        while ((r = reservations.pollExpired(nowMillis)) != null)
        {
            r.campaign.release(r.costNanos, true);
            released(r);
            counters.expiredReservations++;
        }
        settled.expire(nowMillis);
    }

    private void released(final Reservation r)
    {
        counters.reservedNanos -= r.costNanos;
        counters.openReservations--;
        reservations.recycle(r);
    }

    /**
     * Whether this shard holds enough campaigns for their books to miss the cache
     * ({@link #TOUCH_FROM_CAMPAIGNS}): {@link #note} then notes them.
     */
    boolean touchesBooks()
    {
        return campaigns.size() >= TOUCH_FROM_CAMPAIGNS;
    }

    /**
     * Notes, reading nothing, what a bid ({@code notice} false) or a notice of request {@code
     * requestId} for campaign {@code campaignId} will look up, for {@link #touchNoted}: where the
     * campaign's book is, if this shard {@link #touchesBooks touches books}; where the request's
     * reservations are indexed, if that index has grown past what stays in cache; and for a notice,
     * where the dedupe window will look for it (with a window of notices far larger than any cache,
     * each of those is a miss of its own). A caller notes a run of events (a replay's block, a live
     * batch's next events, cluster mode's block of an ingress batch), then touches them: short
     * loops, most of a load each, so that the processor has all their misses in flight at once. At
     * most {@link #NOTED} of each are noted between touches.
     */
    public void note(final long requestId, final long campaignId, final boolean notice)
    {
        if (touchesBooks())
        {
            campaigns.note(campaignId);
        }
        reservations.note(requestId);
        if (notice)
        {
            settled.note(requestId, campaignId);
        }
    }

    /**
     * Reads the table slots and books (and after a collision, the book one slot on), then the
     * reservations' index, then the dedupe window's index positions, {@link #note noted} since the
     * last call, and forgets the notes; changes nothing else.
     *
     * @return what was read (means nothing: keep it, so the reads are not optimised away)
     */
    public long touchNoted()
    {
        return campaigns.touchNoted() + reservations.touchNoted() + settled.touchNoted();
    }

    /** The campaign's live book, or null; for this shard's own thread (and replay audits) only. */
    public CampaignBook campaign(final long campaignId)
    {
        return campaigns.get(campaignId);
    }

    /** The campaign's current state, or null if this shard does not know it. */
    public CampaignSnapshot snapshot(final long campaignId)
    {
        final CampaignBook campaign = campaigns.get(campaignId);
        return campaign == null ? null : campaign.snapshot(nowMillis);
    }

    /** Adds every campaign's state to {@code into}, ordered by unsigned id. */
    public void snapshots(final List<CampaignSnapshot> into)
    {
        final int from = into.size();
        campaigns.forEach(campaign -> into.add(campaign.snapshot(nowMillis)));
        into.subList(from, into.size()).sort(BY_ID);
    }

    /**
     * Adds to {@code into} the states of up to {@code limit} campaigns matching {@code filter}, in
     * unsigned id order, starting after {@code afterId} (or from the first with {@code fromStart}).
     * Costs a binary search and the page, plus one sort of the ids after campaigns were added.
     */
    public void page(final boolean fromStart, final long afterId, final int limit, final CampaignFilter filter,
        final List<CampaignSnapshot> into)
    {
        final long[] keys = order.keys(campaigns);
        for (int i = fromStart ? 0 : CampaignOrder.after(keys, afterId), added = 0; i < keys.length && added < limit; i++)
        {
            final CampaignBook campaign = campaigns.get(CampaignOrder.id(keys[i]));
            if (filter.matches(campaign.definition()))
            {
                into.add(campaign.snapshot(nowMillis));
                added++;
            }
        }
    }

    /** Orders snapshots by unsigned campaign id. */
    public static final Comparator<CampaignSnapshot> BY_ID =
        (a, b) -> Long.compareUnsigned(a.definition().id(), b.definition().id());

    /**
     * Writes the whole shard, for a snapshot: time, counters, campaigns in id order, open
     * reservations oldest first, then the notices settled within the dedupe window.
     * {@link #restoreFrom} rebuilds a shard that decides exactly alike.
     */
    public void snapshotTo(final java.io.DataOutput out) throws java.io.IOException
    {
        snapshotTo(out, false);
    }

    /** {@link #snapshotTo}, or with campaign definitions as JSON, as versions before 5 wrote them (tests read those). */
    void snapshotTo(final java.io.DataOutput out, final boolean jsonDefinitions) throws java.io.IOException
    {
        out.writeLong(nowMillis);
        counters.write(out);
        final long[] keys = order.keys(campaigns);
        out.writeInt(keys.length);
        for (final long key : keys)
        {
            campaigns.get(CampaignOrder.id(key)).write(out, jsonDefinitions);
        }
        reservations.write(out);
        settled.write(out);
    }

    /** Fills this empty shard from {@link #snapshotTo}'s bytes. */
    public void restoreFrom(final java.io.DataInput in) throws java.io.IOException
    {
        restoreFrom(in, false);
    }

    /**
     * Fills this empty shard from {@link #snapshotTo}'s bytes, or from those of a version that kept
     * campaign definitions as JSON ({@code jsonDefinitions}: snapshot files before version 5).
     */
    public void restoreFrom(final java.io.DataInput in, final boolean jsonDefinitions) throws java.io.IOException
    {
        if (!campaigns.isEmpty() || reservations.openCount() != 0 || settled.size() != 0)
        {
            throw new IllegalStateException("restore into an empty shard only");
        }
        nowMillis = Units.epochMillis(in.readLong());
        counters.read(in);
        final int n = in.readInt();
        campaigns.ensureCapacity(n);
        for (int i = 0; i < n; i++)
        {
            final CampaignBook book = CampaignBook.read(in, policy, jsonDefinitions);
            campaigns.add(book);
        }
        reservations.read(in, campaigns);
        settled.read(in);
    }

    /** This shard's time: the latest event timestamp seen. */
    public @EpochMillis long nowMillis()
    {
        return nowMillis;
    }

    public long openReservations()
    {
        return reservations.openCount();
    }

    /** Notices remembered for the dedupe window. */
    public long settledNotices()
    {
        return settled.size();
    }

    public int campaignCount()
    {
        return campaigns.size();
    }

    public ShardCounters counters()
    {
        return counters;
    }
}
