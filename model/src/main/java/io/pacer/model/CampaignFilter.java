package io.pacer.model;

import com.google.errorprone.annotations.Immutable;

/**
 * Which campaigns a page of {@code GET /campaigns} lists: by status, by pacing mode, or both; a
 * null part matches everything.
 *
 * @param status only campaigns with this status, or null for any
 * @param pacing only campaigns with this pacing mode, or null for any
 */
@Immutable
public record CampaignFilter(CampaignStatus status, PacingMode pacing)
{
    /** Every campaign. */
    public static final CampaignFilter ALL = new CampaignFilter(null, null);

    public boolean matches(final CampaignDefinition definition)
    {
        return (status == null || status == definition.status()) && (pacing == null || pacing == definition.pacing());
    }
}
