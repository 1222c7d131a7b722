package io.pacer.model;

import io.pacer.model.ShardCounters.Counter;
import io.pacer.wire.Reason;
import org.junit.jupiter.api.Test;

import static io.pacer.model.TestCampaign.T0_MILLIS;
import static io.pacer.model.TestCampaign.campaign;
import static org.assertj.core.api.Assertions.assertThat;

class ShardCountersTest
{
    private final PacingShard shard = new PacingShard(new PacingPolicy(30_000, 1_000), 1024);

    @Test
    void shouldShowOtherThreadsOnlyWhatTheOwnerPublished()
    {
        shard.define(campaign(42).build(), T0_MILLIS);
        assertThat(shard.bid(1, 42, 2_500_000, T0_MILLIS + 1)).isEqualTo(Reason.NONE);
        shard.win(1, 42, 2_000_000, T0_MILLIS + 2);
        final ShardCounters counters = shard.counters();
        assertThat(counters.published(Counter.MATCHED_WINS)).as("nothing published yet").isZero();
        assertThat(counters.publishedDecisions(Reason.NONE)).isZero();

        counters.publish();

        assertThat(counters.published(Counter.MATCHED_WINS)).isEqualTo(1).isEqualTo(counters.matchedWins());
        assertThat(counters.published(Counter.DEFINITIONS)).isEqualTo(1);
        assertThat(counters.published(Counter.BOOKED_NANOS)).isEqualTo(counters.bookedNanos()).isPositive();
        assertThat(counters.published(Counter.OPEN_RESERVATIONS)).isZero();
        assertThat(counters.publishedDecisions(Reason.NONE)).isEqualTo(1);
    }

    @Test
    void shouldPublishEveryCounterTheOwnerKeeps()
    {
        shard.define(campaign(42).build(), T0_MILLIS);
        shard.bid(1, 42, 2_500_000, T0_MILLIS + 1);
        shard.bid(2, 7, 2_500_000, T0_MILLIS + 1);
        shard.loss(9, 42, T0_MILLIS + 2);
        shard.counters().publish();
        final ShardCounters c = shard.counters();
        assertThat(c.published(Counter.UNMATCHED_LOSSES)).isEqualTo(c.unmatchedLosses()).isEqualTo(1);
        assertThat(c.published(Counter.RESERVED_NANOS)).isEqualTo(c.reservedNanos()).isEqualTo(2_500_000);
        assertThat(c.published(Counter.ACTIVE_CAMPAIGNS)).isEqualTo(c.activeCampaigns()).isEqualTo(1);
        assertThat(c.publishedDecisions(Reason.UNKNOWN_CAMPAIGN)).isEqualTo(c.decisions(Reason.UNKNOWN_CAMPAIGN)).isEqualTo(1);
    }
}
