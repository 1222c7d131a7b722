package io.pacer.model;

import io.pacer.wire.Reason;
import org.junit.jupiter.api.Test;

import static io.pacer.model.TestCampaign.T0;
import static io.pacer.model.TestCampaign.T0_MILLIS;
import static io.pacer.model.TestCampaign.campaign;
import static org.assertj.core.api.Assertions.assertThat;

/** Each pacing mode is one rule; the rule alone decides what a mode adds to the budget caps. */
class PacingRuleTest
{
    private static final long HOUR = 3_600_000;
    private static final long BID_CPM = 1_000_000;

    @Test
    void shouldGiveEveryModeItsOwnRule()
    {
        assertThat(PacingMode.EVEN.rule()).isInstanceOf(EvenRule.class);
        assertThat(PacingMode.ASAP.rule()).isInstanceOf(AsapRule.class);
        for (final PacingMode mode : PacingMode.values())
        {
            assertThat(mode.rule()).as(mode.name()).isNotNull();
        }
    }

    @Test
    void shouldShowAPlanOnlyForARuleThatKeepsOne()
    {
        final PacingShard shard = new PacingShard(new PacingPolicy(HOUR, 1_000), 16);
        shard.define(campaign(1).budgetMicros(3_600).pacing(PacingMode.EVEN).flight(T0, T0.plusMillis(HOUR)).build(), T0_MILLIS);
        shard.define(campaign(2).budgetMicros(3_600).pacing(PacingMode.ASAP).flight(T0, T0.plusMillis(HOUR)).build(), T0_MILLIS);
        assertThat(shard.snapshot(1).plannedNanos()).as("EVEN before its first decision").isEqualTo(CampaignSnapshot.NO_PLAN);

        shard.bid(1, 1, BID_CPM, T0_MILLIS + 1_800_000);
        shard.bid(2, 2, BID_CPM, T0_MILLIS + 1_800_000);

        assertThat(shard.snapshot(1).plannedNanos()).as("EVEN: a line that starts from what was committed")
            .isEqualTo(Money.microsToNanos(0));
        assertThat(shard.snapshot(2).plannedNanos()).as("ASAP").isEqualTo(CampaignSnapshot.NO_PLAN);
    }

    @Test
    void shouldStartAFreshPlanWhenACampaignSwitchesMode()
    {
        final PacingShard shard = new PacingShard(new PacingPolicy(HOUR, 1_000), 16);
        final CampaignDefinition asap = campaign(1).budgetMicros(36_000).pacing(PacingMode.ASAP)
            .flight(T0, T0.plusMillis(HOUR)).build();
        shard.define(asap, T0_MILLIS);
        assertThat(shard.bid(1, 1, BID_CPM, T0_MILLIS)).isEqualTo(Reason.NONE);
        assertThat(shard.bid(2, 1, BID_CPM, T0_MILLIS)).isEqualTo(Reason.NONE);

        shard.define(campaign(1).budgetMicros(36_000).pacing(PacingMode.EVEN).flight(T0, T0.plusMillis(HOUR)).build(),
            T0_MILLIS + 1_000);

        // the new line starts from the 2,000 micros ASAP committed (of 36,000), so one more bid fits it and the next does not
        assertThat(shard.bid(3, 1, BID_CPM, T0_MILLIS + 1_000)).isEqualTo(Reason.NONE);
        assertThat(shard.bid(4, 1, BID_CPM, T0_MILLIS + 1_000)).isEqualTo(Reason.PACING);
        assertThat(shard.snapshot(1).plannedNanos()).isEqualTo(Money.microsToNanos(2_000));
    }
}
