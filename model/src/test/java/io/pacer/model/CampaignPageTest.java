package io.pacer.model;

import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;

import static io.pacer.model.TestCampaign.T0_MILLIS;
import static io.pacer.model.TestCampaign.campaign;
import static org.assertj.core.api.Assertions.assertThat;

/** A shard's page of campaigns: unsigned id order, after a cursor, filtered, bounded. */
class CampaignPageTest
{
    private final PacingShard shard = new PacingShard(PacingPolicy.DEFAULT, 16);

    @Test
    void shouldListInUnsignedIdOrderFromACursor()
    {
        for (final long id : new long[] {30, -1, 10, 20, Long.MIN_VALUE})
        {
            shard.define(campaign(id).build(), T0_MILLIS);
        }
        assertThat(ids(true, 0, 10, CampaignFilter.ALL)).containsExactly(10L, 20L, 30L, Long.MIN_VALUE, -1L);
        assertThat(ids(false, 20, 2, CampaignFilter.ALL)).containsExactly(30L, Long.MIN_VALUE);
        assertThat(ids(false, 25, 10, CampaignFilter.ALL)).containsExactly(30L, Long.MIN_VALUE, -1L);
        assertThat(ids(false, -1, 10, CampaignFilter.ALL)).isEmpty();
    }

    @Test
    void shouldSeeACampaignAddedAfterAnEarlierPage()
    {
        shard.define(campaign(10).build(), T0_MILLIS);
        assertThat(ids(true, 0, 10, CampaignFilter.ALL)).containsExactly(10L);
        shard.define(campaign(5).build(), T0_MILLIS);
        assertThat(ids(true, 0, 10, CampaignFilter.ALL)).containsExactly(5L, 10L);
    }

    @Test
    void shouldCountOnlyMatchingCampaignsTowardsTheLimit()
    {
        for (long id = 1; id <= 6; id++)
        {
            shard.define(campaign(id).status(id % 2 == 0 ? CampaignStatus.PAUSED : CampaignStatus.ACTIVE).build(), T0_MILLIS);
        }
        assertThat(ids(true, 0, 2, new CampaignFilter(CampaignStatus.PAUSED, null))).containsExactly(2L, 4L);
        assertThat(ids(false, 4, 2, new CampaignFilter(CampaignStatus.PAUSED, null))).containsExactly(6L);
        assertThat(ids(true, 0, 9, new CampaignFilter(null, PacingMode.EVEN))).isEmpty();
        assertThat(ids(true, 0, 9, new CampaignFilter(CampaignStatus.ACTIVE, PacingMode.ASAP))).containsExactly(1L, 3L, 5L);
    }

    private List<Long> ids(final boolean fromStart, final long after, final int limit, final CampaignFilter filter)
    {
        final List<CampaignSnapshot> page = new ArrayList<>();
        shard.page(fromStart, after, limit, filter, page);
        return page.stream().map(s -> s.definition().id()).toList();
    }
}
