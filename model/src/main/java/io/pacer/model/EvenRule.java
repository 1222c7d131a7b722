package io.pacer.model;

import io.pacer.units.CurrencyNanos;
import io.pacer.units.DurationMillis;
import io.pacer.units.EpochMillis;
import io.pacer.units.Units;
import io.pacer.wire.Reason;

/**
 * {@link PacingMode#EVEN}: spend follows a straight line to the budget at the end of the flight,
 * and under a daily cap a second line to the cap at the end of each day ({@link PacingLine}; the
 * lines are kept in the {@link CampaignBook}). The
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
        final boolean dailyCap = campaign.dailyBudgetNanos() > 0;
        if (nowMillis >= campaign.nextReplanMillis())
        {
            replan(campaign, nowMillis, committedNanos, todayCommittedNanos, dailyCap);
        }
        return committedNanos > campaign.lifetimePlannedNanos(nowMillis) ||
            (dailyCap && todayCommittedNanos > campaign.dailyPlannedNanos(nowMillis)) ? Reason.PACING : Reason.NONE;
    }

    private static void replan(final CampaignBook campaign, final @EpochMillis long nowMillis,
        final @CurrencyNanos long committedNanos, final @CurrencyNanos long todayCommittedNanos, final boolean dailyCap)
    {
        campaign.replanLifetime(nowMillis, committedNanos);
        if (dailyCap)
        {
            campaign.replanDaily(nowMillis, todayCommittedNanos);
        }
        final @DurationMillis long interval = campaign.policy().replanIntervalMillis();
        final @DurationMillis long intoSlot = Math.floorMod(Units.between(campaign.startMillis(), nowMillis), interval);
        campaign.planDrawn(Units.plus(nowMillis, interval - intoSlot));
    }

    @Override
    public @CurrencyNanos long plannedNanos(final CampaignBook campaign, final @EpochMillis long nowMillis)
    {
        return campaign.planned() ? campaign.lifetimePlannedNanos(nowMillis) : CampaignSnapshot.NO_PLAN;
    }
}
