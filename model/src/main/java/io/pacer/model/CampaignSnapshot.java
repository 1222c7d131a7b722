package io.pacer.model;

import com.google.errorprone.annotations.Immutable;
import io.pacer.units.CurrencyNanos;
import io.pacer.units.EpochMillis;
import io.pacer.units.Units;

/**
 * A consistent, immutable picture of one campaign's state, taken by the shard that owns it.
 * Money is in nanos, the unit of accounting; {@link CampaignJson} also shows it in micros.
 */
@Immutable
public record CampaignSnapshot(
    CampaignDefinition definition,
    @CurrencyNanos long spentNanos,
    @CurrencyNanos long reservedNanos,
    @CurrencyNanos long todaySpentNanos,
    @CurrencyNanos long plannedNanos,
    long bids,
    long noBids,
    long wins,
    long losses,
    long lateWins,
    long expiredReservations,
    long openReservations,
    @EpochMillis long asOfMillis)
{
    /** {@link #plannedNanos} of a campaign without a plan line (ASAP, or outside its flight). */
    public static final @CurrencyNanos long NO_PLAN = Units.currencyNanos(-1);
}
