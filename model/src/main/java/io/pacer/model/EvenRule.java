package io.pacer.model;

import io.pacer.units.CurrencyNanos;
import io.pacer.units.DurationMillis;
import io.pacer.units.EpochMillis;
import io.pacer.units.Units;
import io.pacer.wire.Reason;

/**
 * {@link PacingMode#EVEN}: spend follows a straight line to the budget at the end of the flight,
 * and under a daily cap a second line to the cap at the end of each day ({@link PacingLine}). The
 * lines are re-drawn from what is committed at the first decision of each re-plan slot (slots are
 * {@link PacingPolicy#replanIntervalMillis()} long, counted from the flight's start) and of each
 * day. A bid waits while committed spend is ahead of either line.
 */
final class EvenRule implements PacingRule
{
    static final EvenRule INSTANCE = new EvenRule();

    private EvenRule()
    {
    }

    @Override
    public Reason pace(final CampaignBook campaign, final @EpochMillis long nowMillis,
        final @CurrencyNanos long committedNanos, final @CurrencyNanos long todayCommittedNanos)
    {
        final PacingPlan plan = campaign.plan();
        final boolean dailyCap = campaign.dailyBudgetNanos() > 0;
        if (nowMillis >= plan.nextReplanMillis)
        {
            replan(campaign, plan, nowMillis, committedNanos, todayCommittedNanos);
        }
        return plan.lifetime.isAhead(nowMillis, committedNanos) ||
            (dailyCap && plan.daily.isAhead(nowMillis, todayCommittedNanos)) ? Reason.PACING : Reason.NONE;
    }

    private static void replan(final CampaignBook campaign, final PacingPlan plan, final @EpochMillis long nowMillis,
        final @CurrencyNanos long committedNanos, final @CurrencyNanos long todayCommittedNanos)
    {
        plan.lifetime.replan(nowMillis, campaign.endMillis(), committedNanos, campaign.budgetNanos());
        if (campaign.dailyBudgetNanos() > 0)
        {
            final @EpochMillis long dayEnd = Math.min(campaign.day().endMillis(), campaign.endMillis());
            plan.daily.replan(nowMillis, dayEnd, todayCommittedNanos, campaign.dailyBudgetNanos());
        }
        final @DurationMillis long interval = campaign.policy().replanIntervalMillis();
        final @DurationMillis long intoSlot = Math.floorMod(Units.between(campaign.startMillis(), nowMillis), interval);
        plan.nextReplanMillis = Units.plus(nowMillis, interval - intoSlot);
    }

    @Override
    public @CurrencyNanos long plannedNanos(final CampaignBook campaign, final @EpochMillis long nowMillis)
    {
        final PacingPlan plan = campaign.plan();
        return plan.planned() ? plan.lifetime.plannedNanos(nowMillis) : CampaignSnapshot.NO_PLAN;
    }
}
