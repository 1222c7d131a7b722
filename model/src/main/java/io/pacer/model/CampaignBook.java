package io.pacer.model;

import io.pacer.units.CpmMicros;
import io.pacer.units.CurrencyNanos;
import io.pacer.units.EpochMillis;
import io.pacer.units.Units;
import io.pacer.wire.Reason;

/**
 * One campaign's money and pacing state. Owned and mutated by exactly one shard thread; nothing
 * here is shared, locked or atomic. Amounts are nanos (see {@link Money}).
 *
 * <p>Invariant, late wins aside: {@code spent + reserved <= budget}, and under a daily cap
 * {@code todaySpent + reserved <= dailyBudget}. Reserved money counts against both caps, whichever
 * day it was reserved on.
 */
public final class CampaignBook
{
    /** {@link #bookWin}'s {@code reservedCostNanos} when no reservation matched the win. */
    public static final @CurrencyNanos long NO_RESERVATION = Units.currencyNanos(-1);

    private final PacingPolicy policy;
    private final PacingPlan plan = new PacingPlan();
    private CampaignDefinition definition;
    private DayWindow day;
    private @CurrencyNanos long budgetNanos;
    private @CurrencyNanos long dailyBudgetNanos;
    private @EpochMillis long startMillis;
    private @EpochMillis long endMillis;
    /**
     * What a decision reads of the definition, kept here beside the money: with a million
     * campaigns every bid's campaign is a cache miss, and the definition would be one more.
     */
    private boolean active;
    private @CpmMicros long maxBidCpmMicros;
    private PacingRule rule;

    private @CurrencyNanos long spentNanos;
    private @CurrencyNanos long reservedNanos;
    private @CurrencyNanos long todaySpentNanos;

    private long bids;
    private long noBids;
    private long wins;
    private long losses;
    private long lateWins;
    private long expiredReservations;
    private long openReservations;

    public CampaignBook(final CampaignDefinition definition, final PacingPolicy policy)
    {
        this.policy = policy;
        redefine(definition);
    }

    /**
     * Replaces the definition. Spent and reserved money stay; the pacing plan is re-drawn from
     * them at the next decision.
     */
    public void redefine(final CampaignDefinition newDefinition)
    {
        if (definition == null || !definition.timeZone().equals(newDefinition.timeZone()))
        {
            day = new DayWindow(newDefinition.timeZone());
        }
        definition = newDefinition;
        budgetNanos = Money.microsToNanos(newDefinition.budgetMicros());
        dailyBudgetNanos = Money.microsToNanos(newDefinition.dailyBudgetMicros());
        startMillis = Units.epochMillis(newDefinition.start().toEpochMilli());
        endMillis = Units.epochMillis(newDefinition.end().toEpochMilli());
        active = newDefinition.status() == CampaignStatus.ACTIVE;
        maxBidCpmMicros = newDefinition.maxBidCpmMicros();
        rule = newDefinition.pacing().rule();
        plan.reset();
    }

    /**
     * Decides a bid of {@code bidCpmMicros} (already known to be positive) at {@code nowMillis}
     * and, on BID, reserves its cost.
     *
     * @return {@link Reason#NONE} for a BID, otherwise why not
     */
    public Reason decide(final @EpochMillis long nowMillis, final @CpmMicros long bidCpmMicros)
    {
        final Reason reason = evaluate(nowMillis, bidCpmMicros);
        if (reason == Reason.NONE)
        {
            reservedNanos += Money.impressionCostNanos(bidCpmMicros);
            openReservations++;
            bids++;
        }
        else
        {
            noBids++;
        }
        return reason;
    }

    private Reason evaluate(final @EpochMillis long nowMillis, final @CpmMicros long bidCpmMicros)
    {
        if (!active || nowMillis < startMillis || nowMillis >= endMillis)
        {
            return Reason.CAMPAIGN_INACTIVE;
        }
        if (maxBidCpmMicros > 0 && bidCpmMicros > maxBidCpmMicros)
        {
            return Reason.BID_ABOVE_MAX;
        }
        rollDay(nowMillis);
        final @CurrencyNanos long costNanos = Money.impressionCostNanos(bidCpmMicros);
        final @CurrencyNanos long committedNanos = Money.saturatingAdd(spentNanos, reservedNanos);
        final @CurrencyNanos long todayCommittedNanos = Money.saturatingAdd(todaySpentNanos, reservedNanos);
        final boolean dailyCap = dailyBudgetNanos > 0;
        if (costNanos > budgetNanos - committedNanos || (dailyCap && costNanos > dailyBudgetNanos - todayCommittedNanos))
        {
            return Reason.BUDGET_EXHAUSTED;
        }
        return rule.pace(this, nowMillis, committedNanos, todayCommittedNanos);
    }

    private void rollDay(final @EpochMillis long nowMillis)
    {
        if (day.moveTo(nowMillis))
        {
            todaySpentNanos = Units.ZERO_NANOS;
            plan.dayRolled();
        }
    }

    /** Releases a reservation's cost, after its loss notice or expiry. */
    public void release(final @CurrencyNanos long costNanos, final boolean expired)
    {
        reservedNanos -= costNanos;
        openReservations--;
        if (expired)
        {
            expiredReservations++;
        }
        else
        {
            losses++;
        }
    }

    /**
     * Books a win at {@code priceCpmMicros}: always booked, even without a matching reservation
     * (money the exchange says it spent is never dropped).
     *
     * @param reservedCostNanos the matching reservation's cost, released here, or -1 if none matched
     */
    public void bookWin(final @EpochMillis long nowMillis, final @CpmMicros long priceCpmMicros,
        final @CurrencyNanos long reservedCostNanos)
    {
        rollDay(nowMillis);
        final @CurrencyNanos long priceNanos = Money.impressionCostNanos(priceCpmMicros);
        if (reservedCostNanos >= 0)
        {
            reservedNanos -= reservedCostNanos;
            openReservations--;
        }
        else
        {
            lateWins++;
        }
        spentNanos = Money.saturatingAdd(spentNanos, priceNanos);
        todaySpentNanos = Money.saturatingAdd(todaySpentNanos, priceNanos);
        wins++;
    }

    public CampaignDefinition definition()
    {
        return definition;
    }

    /** Writes everything decisions depend on, for a snapshot. */
    void write(final java.io.DataOutput out, final boolean jsonDefinition) throws java.io.IOException
    {
        if (jsonDefinition)
        {
            out.writeUTF(CampaignJson.definition(definition));
        }
        else
        {
            definition.write(out);
        }
        for (final long v : new long[] {plan.nextReplanMillis, spentNanos, reservedNanos, todaySpentNanos, bids, noBids, wins,
            losses, lateWins, expiredReservations, openReservations})
        {
            out.writeLong(v);
        }
        day.write(out);
        plan.writeLines(out);
    }

    /** Reads what {@link #write} wrote. */
    static CampaignBook read(final java.io.DataInput in, final PacingPolicy policy, final boolean jsonDefinition)
        throws java.io.IOException
    {
        final CampaignBook book = new CampaignBook(jsonDefinition ? CampaignDefinitionParser.parseJson(in.readUTF()) :
            CampaignDefinition.read(in), policy);
        book.plan.nextReplanMillis = Units.epochMillis(in.readLong());
        book.spentNanos = Units.currencyNanos(in.readLong());
        book.reservedNanos = Units.currencyNanos(in.readLong());
        book.todaySpentNanos = Units.currencyNanos(in.readLong());
        book.bids = in.readLong();
        book.noBids = in.readLong();
        book.wins = in.readLong();
        book.losses = in.readLong();
        book.lateWins = in.readLong();
        book.expiredReservations = in.readLong();
        book.openReservations = in.readLong();
        book.day.read(in);
        book.plan.readLines(in);
        return book;
    }

    PacingPlan plan()
    {
        return plan;
    }

    PacingPolicy policy()
    {
        return policy;
    }

    DayWindow day()
    {
        return day;
    }

    @CurrencyNanos long budgetNanos()
    {
        return budgetNanos;
    }

    @CurrencyNanos long dailyBudgetNanos()
    {
        return dailyBudgetNanos;
    }

    @EpochMillis long startMillis()
    {
        return startMillis;
    }

    @EpochMillis long endMillis()
    {
        return endMillis;
    }

    public @CurrencyNanos long spentNanos()
    {
        return spentNanos;
    }

    public @CurrencyNanos long reservedNanos()
    {
        return reservedNanos;
    }

    /** A consistent picture of this campaign as of {@code nowMillis} (the owning shard's time). */
    public CampaignSnapshot snapshot(final @EpochMillis long nowMillis)
    {
        final boolean sameDay = nowMillis >= day.startMillis() && nowMillis < day.endMillis();
        final @CurrencyNanos long planned = nowMillis >= startMillis && nowMillis < endMillis ?
            rule.plannedNanos(this, nowMillis) : CampaignSnapshot.NO_PLAN;
        return new CampaignSnapshot(
            definition,
            spentNanos,
            reservedNanos,
            sameDay ? todaySpentNanos : Units.ZERO_NANOS,
            planned,
            bids,
            noBids,
            wins,
            losses,
            lateWins,
            expiredReservations,
            openReservations,
            nowMillis);
    }
}
