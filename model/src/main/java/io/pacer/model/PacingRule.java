package io.pacer.model;

import com.google.errorprone.annotations.Immutable;
import io.pacer.units.CurrencyNanos;
import io.pacer.units.EpochMillis;
import io.pacer.wire.Reason;

/**
 * How one {@link PacingMode} spreads a campaign's delivery, once its budget caps allow a bid: one
 * implementation per mode ({@link EvenRule}, {@link AsapRule}), chosen by
 * {@link PacingMode#rule()}. A rule keeps no state of its own: a campaign's plan lives in its
 * {@link CampaignBook}, so that switching mode is a redefinition and a
 * snapshot holds the same bytes whatever the mode. A new mode is a new constant, a new rule and
 * its test. Rules are immutable (Error Prone checks it), so one instance serves every campaign.
 */
@Immutable
public interface PacingRule
{
    /**
     * Whether a bid that fits every budget cap may go now.
     *
     * @param campaign            the campaign, in flight and active
     * @param committedNanos      spent + reserved over the flight
     * @param todayCommittedNanos spent today + reserved
     * @return {@link Reason#NONE} to bid, {@link Reason#PACING} to hold back
     */
    Reason pace(CampaignBook campaign, @EpochMillis long nowMillis, @CurrencyNanos long committedNanos,
        @CurrencyNanos long todayCommittedNanos);

    /** Spend the plan allows by {@code nowMillis}, or {@link CampaignSnapshot#NO_PLAN} for a rule that keeps none. */
    @CurrencyNanos long plannedNanos(CampaignBook campaign, @EpochMillis long nowMillis);
}
