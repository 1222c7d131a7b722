package io.pacer.model;

import io.pacer.wire.Reason;
import org.junit.jupiter.api.Test;

import static io.pacer.model.TestCampaign.T0;
import static io.pacer.model.TestCampaign.T0_MILLIS;
import static io.pacer.model.TestCampaign.campaign;
import static org.assertj.core.api.Assertions.assertThat;

/** EVEN pacing, driven by synthetic traffic with exact event times. */
class EvenPacingTest
{
    private static final long HOUR = 3_600_000;
    private static final long BID_CPM = 1_000_000;   // one impression = 1,000 micros

    @Test
    void shouldSayPacingWhenAheadOfPlanButBidAgainWhenThePlanCatchesUp()
    {
        // 3,600 micros over an hour: 1 micro per second, so a 1,000-micro bid every 1,000 s
        final PacingShard shard = new PacingShard(new PacingPolicy(HOUR, 1_000), 16);
        shard.define(campaign(1).budgetMicros(3_600).pacing(PacingMode.EVEN)
            .flight(T0, T0.plusMillis(HOUR)).build(), T0_MILLIS);
        assertThat(shard.bid(1, 1, BID_CPM, T0_MILLIS)).isEqualTo(Reason.NONE);
        assertThat(shard.bid(2, 1, BID_CPM, T0_MILLIS + 10_000)).isEqualTo(Reason.PACING);
        assertThat(shard.bid(3, 1, BID_CPM, T0_MILLIS + 999_000)).isEqualTo(Reason.PACING);
        assertThat(shard.bid(4, 1, BID_CPM, T0_MILLIS + 1_000_000)).isEqualTo(Reason.NONE);
    }

    @Test
    void shouldNotPaceAsapCampaign()
    {
        final PacingShard shard = new PacingShard(new PacingPolicy(HOUR, 1_000), 16);
        shard.define(campaign(1).budgetMicros(3_600).pacing(PacingMode.ASAP)
            .flight(T0, T0.plusMillis(HOUR)).build(), T0_MILLIS);
        for (int i = 0; i < 3; i++)
        {
            assertThat(shard.bid(i, 1, BID_CPM, T0_MILLIS)).isEqualTo(Reason.NONE);
        }
        assertThat(shard.bid(10, 1, BID_CPM, T0_MILLIS)).isEqualTo(Reason.BUDGET_EXHAUSTED);
    }

    @Test
    void shouldSpreadSpendEvenlyUnderHeavyTrafficAndDeliverTheBudget()
    {
        final Simulation sim = new Simulation(PacingMode.EVEN, 0);
        sim.run(T0_MILLIS, T0_MILLIS + HOUR, 5);
        assertThat(sim.spentNanos()).isLessThanOrEqualTo(sim.budgetNanos);
        assertThat(sim.spentNanos()).isGreaterThanOrEqualTo(sim.budgetNanos * 99 / 100);
        assertThat(sim.maxDeviationFromLinearPlan()).isLessThanOrEqualTo(sim.budgetNanos * 2 / 100);
    }

    @Test
    void shouldSpreadEachDayUnderDailyCap()
    {
        final Simulation sim = new Simulation(PacingMode.EVEN, 2_400_000 / 2);
        // a two-day flight whose lifetime budget could fill both days; the daily cap binds
        sim.runDays(2);
        assertThat(sim.spentNanos()).isLessThanOrEqualTo(2 * Money.microsToNanos(2_400_000 / 2));
        assertThat(sim.maxDailySpendNanos()).isLessThanOrEqualTo(Money.microsToNanos(2_400_000 / 2));
        // in the first quarter of a day, about a quarter of the daily cap is spent, not all of it
        assertThat(sim.spentInFirstQuarterOfDayNanos()).isBetween(
            Money.microsToNanos(1_200_000) / 4 * 95 / 100, Money.microsToNanos(1_200_000) / 4 * 105 / 100);
    }

    @Test
    void shouldRecoverFromQuietStretchWithoutBurst()
    {
        final Simulation sim = new Simulation(PacingMode.EVEN, 0);
        // no traffic in the second quarter of the flight
        sim.run(T0_MILLIS, T0_MILLIS + HOUR / 4, 5);
        sim.run(T0_MILLIS + HOUR / 2, T0_MILLIS + HOUR, 5);
        final long remaining = sim.budgetNanos - sim.spentAtMillis(T0_MILLIS + HOUR / 2);
        // right after the lull, the next minute spends about remaining/30 minutes, not the backlog
        final long firstMinute = sim.spentAtMillis(T0_MILLIS + HOUR / 2 + 60_000) - sim.spentAtMillis(T0_MILLIS + HOUR / 2);
        assertThat(firstMinute).isLessThanOrEqualTo(remaining / 30 * 110 / 100);
        assertThat(sim.spentNanos()).isGreaterThanOrEqualTo(sim.budgetNanos * 99 / 100);
        assertThat(sim.spentNanos()).isLessThanOrEqualTo(sim.budgetNanos);
    }

    /**
     * One campaign, a request every {@code stepMillis}, wins at 30% at 60% of the bid, decided
     * 5 ms after the bid; spend sampled every second.
     */
    private static final class Simulation
    {
        final long budgetNanos = Money.microsToNanos(2_400_000);
        final PacingShard shard = new PacingShard(new PacingPolicy(60_000, 1_000), 1 << 16);
        final long[] spentBySecond = new long[3 * 86_400];
        long requestId;
        long lastSecond = -1;

        Simulation(final PacingMode mode, final long dailyCapMicros)
        {
            final TestCampaign c = campaign(1).budgetMicros(2_400_000).pacing(mode).dailyBudgetMicros(dailyCapMicros);
            if (dailyCapMicros > 0)
            {
                c.flight(T0, T0.plusSeconds(2 * 86_400));
            }
            else
            {
                c.flight(T0, T0.plusMillis(HOUR));
            }
            shard.define(c.build(), T0_MILLIS);
        }

        void runDays(final int days)
        {
            // traffic 5x what the daily cap needs: cap 1,200,000 micros/day at 1,000 micros a win
            // and 30% wins is 4,000 bids a day needed; send one request every ~4.3 s
            run(T0_MILLIS, T0_MILLIS + days * 86_400_000L, 4_320);
        }

        void run(final long fromMillis, final long toMillis, final long stepMillis)
        {
            long pendingRequest = 0;
            long pendingAt = 0;
            for (long t = fromMillis; t < toMillis; t += stepMillis)
            {
                if (pendingRequest != 0 && t >= pendingAt)
                {
                    notice(pendingRequest, pendingAt);
                    pendingRequest = 0;
                }
                record(t);
                final long id = ++requestId;
                if (shard.bid(id, 1, BID_CPM, t) == Reason.NONE)
                {
                    if (pendingRequest != 0)
                    {
                        notice(pendingRequest, t);
                    }
                    pendingRequest = id;
                    pendingAt = t + 5;
                }
            }
            if (pendingRequest != 0)
            {
                notice(pendingRequest, toMillis);
            }
            record(toMillis);
        }

        private void notice(final long id, final long at)
        {
            if (id % 10 < 3)
            {
                shard.win(id, 1, BID_CPM * 6 / 10, at);
            }
            else
            {
                shard.loss(id, 1, at);
            }
        }

        private void record(final long t)
        {
            final long second = (t - T0_MILLIS) / 1000;
            final long spent = shard.snapshot(1).spentNanos();
            for (long s = lastSecond + 1; s <= second && s < spentBySecond.length; s++)
            {
                spentBySecond[(int)s] = spent;
            }
            lastSecond = Math.max(lastSecond, second);
        }

        long spentNanos()
        {
            return shard.snapshot(1).spentNanos();
        }

        long spentAtMillis(final long t)
        {
            return spentBySecond[(int)((t - T0_MILLIS) / 1000)];
        }

        long maxDeviationFromLinearPlan()
        {
            long max = 0;
            for (int s = 0; s <= HOUR / 1000 && s <= lastSecond; s++)
            {
                final long plan = Money.scale(budgetNanos, s, HOUR / 1000);
                max = Math.max(max, Math.abs(spentBySecond[s] - plan));
            }
            return max;
        }

        long maxDailySpendNanos()
        {
            return Math.max(spentBySecond[86_400], spentBySecond[2 * 86_400] - spentBySecond[86_400]);
        }

        long spentInFirstQuarterOfDayNanos()
        {
            return spentBySecond[86_400 + 21_600] - spentBySecond[86_400];
        }
    }
}
