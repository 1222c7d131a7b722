package io.pacer.model;

import com.google.errorprone.annotations.Immutable;

/**
 * A consistent, immutable picture of one campaign's state, taken by the shard that owns it.
 * Money is in nanos, the unit of accounting; {@link CampaignJson} also shows it in micros.
 */
@Immutable
public record CampaignSnapshot(
    CampaignDefinition definition,
    long spentNanos,
    long reservedNanos,
    long todaySpentNanos,
    long plannedNanos,
    long bids,
    long noBids,
    long wins,
    long losses,
    long lateWins,
    long expiredReservations,
    long openReservations,
    long asOfMillis)
{
}
