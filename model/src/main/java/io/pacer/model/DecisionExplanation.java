package io.pacer.model;

import io.pacer.units.CpmMicros;
import io.pacer.units.CurrencyNanos;
import io.pacer.units.EpochMillis;
import io.pacer.units.Units;
import io.pacer.wire.Reason;

/**
 * Why one bid got its answer: the rule that decided it and the numbers that rule compared, as the
 * campaign stood at that instant. Built by an audit right after the shard has decided the bid
 * ({@link #of}), so the plan lines and the day are the ones the decision used; for a BID, the
 * reservation it just opened is taken back out of {@code reservedNanos}.
 *
 * @param reason              the answer: {@link Reason#NONE} for a BID
 * @param rule                the check that gave it, in words
 * @param bidCpmMicros        the bid price
 * @param costNanos           what one impression at that price costs, the amount checked against the budgets
 * @param budgetNanos         the flight's budget
 * @param spentNanos          booked by wins before this bid
 * @param reservedNanos       held by open BIDs before this bid
 * @param dailyBudgetNanos    the daily cap, 0 for none
 * @param todaySpentNanos     booked today (in the campaign's time zone) before this bid
 * @param dayStartMillis      the campaign's day this bid fell in, first millisecond
 * @param dayEndMillis        and the first millisecond after it
 * @param plannedNanos        the flight's plan line at this instant, or {@link CampaignSnapshot#NO_PLAN}
 * @param dailyPlannedNanos   the day's plan line at this instant, or {@link CampaignSnapshot#NO_PLAN}
 * @param definition          the campaign as defined at that instant; null for an unknown campaign
 */
public record DecisionExplanation(
    Reason reason,
    String rule,
    @CpmMicros long bidCpmMicros,
    @CurrencyNanos long costNanos,
    @CurrencyNanos long budgetNanos,
    @CurrencyNanos long spentNanos,
    @CurrencyNanos long reservedNanos,
    @CurrencyNanos long dailyBudgetNanos,
    @CurrencyNanos long todaySpentNanos,
    @EpochMillis long dayStartMillis,
    @EpochMillis long dayEndMillis,
    @CurrencyNanos long plannedNanos,
    @CurrencyNanos long dailyPlannedNanos,
    CampaignDefinition definition)
{
    /** Spent plus reserved: what the flight's budget and plan line were compared with. */
    public @CurrencyNanos long committedNanos()
    {
        return Money.saturatingAdd(spentNanos, reservedNanos);
    }

    /** Spent today plus reserved: what the daily cap and the day's line were compared with. */
    public @CurrencyNanos long todayCommittedNanos()
    {
        return Money.saturatingAdd(todaySpentNanos, reservedNanos);
    }

    /**
     * Explains a bid that {@code campaign} (null: unknown to its shard) has just decided at
     * {@code nowMillis} with {@code reason}.
     */
    public static DecisionExplanation of(final CampaignBook campaign, final @EpochMillis long nowMillis,
        final @CpmMicros long bidCpmMicros, final Reason reason)
    {
        final @CurrencyNanos long costNanos = bidCpmMicros > 0 ? Money.impressionCostNanos(bidCpmMicros) : Units.ZERO_NANOS;
        if (campaign == null)
        {
            return new DecisionExplanation(reason, rule(reason, null, nowMillis, bidCpmMicros, false), bidCpmMicros, costNanos,
                Units.ZERO_NANOS, Units.ZERO_NANOS, Units.ZERO_NANOS, Units.ZERO_NANOS, Units.ZERO_NANOS,
                Units.MIN_INSTANT, Units.MIN_INSTANT, CampaignSnapshot.NO_PLAN, CampaignSnapshot.NO_PLAN, null);
        }
        final @CurrencyNanos long reserved = reason == Reason.NONE ?
            Units.currencyNanos(campaign.reservedNanos() - costNanos) : campaign.reservedNanos();
        final CampaignSnapshot state = campaign.snapshot(nowMillis);
        final boolean even = campaign.definition().pacing() == PacingMode.EVEN && campaign.planned();
        final @CurrencyNanos long dailyPlanned = even && campaign.dailyBudgetNanos() > 0 ?
            campaign.dailyPlannedNanos(nowMillis) : CampaignSnapshot.NO_PLAN;
        final boolean daily = reason == Reason.BUDGET_EXHAUSTED && campaign.dailyBudgetNanos() > 0 &&
            costNanos > campaign.dailyBudgetNanos() - Money.saturatingAdd(state.todaySpentNanos(), reserved);
        final boolean dailyPacing = reason == Reason.PACING && dailyPlanned != CampaignSnapshot.NO_PLAN &&
            Money.saturatingAdd(campaign.spentNanos(), reserved) <= campaign.lifetimePlannedNanos(nowMillis);
        return new DecisionExplanation(reason,
            rule(reason, campaign.definition(), nowMillis, bidCpmMicros, daily || dailyPacing),
            bidCpmMicros, costNanos, campaign.budgetNanos(), campaign.spentNanos(), reserved, campaign.dailyBudgetNanos(),
            state.todaySpentNanos(), campaign.dayStartMillis(), campaign.dayEndMillis(), state.plannedNanos(),
            dailyPlanned, campaign.definition());
    }

    private static String rule(final Reason reason, final CampaignDefinition d, final @EpochMillis long nowMillis,
        final @CpmMicros long bidCpmMicros, final boolean daily)
    {
        switch (reason)
        {
            case NONE:
                return "every check passed: active and in flight, bid within the maximum, cost within " +
                    (d.hasDailyCap() ? "the budget and the daily cap" : "the budget") +
                    (d.pacing() == PacingMode.EVEN ? ", committed spend on or below the plan line" : " (ASAP: no plan line)");
            case UNKNOWN_CAMPAIGN:
                return "no campaign with this id was defined at that instant";
            case INVALID_REQUEST:
                return "the bid price must be positive, was " + bidCpmMicros + " CPM micros";
            case OVERLOADED:
                return "shed before evaluation (queue deadline passed, or a contained failure): the shard never saw it";
            case CAMPAIGN_INACTIVE:
                if (d.status() != CampaignStatus.ACTIVE)
                {
                    return "the campaign's status was " + d.status();
                }
                return nowMillis < d.start().toEpochMilli() ? "the flight had not started (starts " + d.start() + ")" :
                    "the flight had ended (ended " + d.end() + ")";
            case BID_ABOVE_MAX:
                return "the bid, " + bidCpmMicros + " CPM micros, was above the campaign's maximum, " +
                    d.maxBidCpmMicros();
            case BUDGET_EXHAUSTED:
                return daily ? "the impression's cost did not fit in the daily cap less today's committed spend" :
                    "the impression's cost did not fit in the budget less committed spend";
            case PACING:
                return daily ? "EVEN: today's committed spend was ahead of the day's plan line" :
                    "EVEN: committed spend was ahead of the flight's plan line";
            default:
                return reason.name();
        }
    }
}
