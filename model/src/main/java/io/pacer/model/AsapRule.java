package io.pacer.model;

import io.pacer.units.CurrencyNanos;
import io.pacer.units.EpochMillis;
import io.pacer.wire.Reason;

/** {@link PacingMode#ASAP}: no pacing; whatever the budget caps allow goes at once. */
final class AsapRule implements PacingRule
{
    static final AsapRule INSTANCE = new AsapRule();

    private AsapRule()
    {
    }

    @Override
    public Reason pace(final CampaignBook campaign, final @EpochMillis long nowMillis,
        final @CurrencyNanos long committedNanos, final @CurrencyNanos long todayCommittedNanos)
    {
        return Reason.NONE;
    }

    @Override
    public @CurrencyNanos long plannedNanos(final CampaignBook campaign, final @EpochMillis long nowMillis)
    {
        return CampaignSnapshot.NO_PLAN;
    }
}
