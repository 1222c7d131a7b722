package io.pacer.model;

import io.pacer.wire.Reason;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.stream.LongStream;

import static io.pacer.model.TestCampaign.T0_MILLIS;
import static io.pacer.model.TestCampaign.campaign;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * Property: for random interleavings of bids, wins, losses, redefinitions and ticks across many
 * campaigns and shards, no BID ever takes spent + reserved past the budget (money booked by late
 * wins aside), and the same sequence always gives the same answers and the same final state.
 * Each seed is one reproducible case.
 */
class ShardedPacingPropertyTest
{
    private static final int CAMPAIGNS = 24;
    private static final int EVENTS = 4_000;
    /** Prices in CPM micros (= nanos per impression) that meet small budgets exactly and by one nano. */
    private static final long[] PRICES = {1, 999, 1_000, 1_001, 2_500, 4_999, 5_000, 10_000, 2_500_000};

    static LongStream seeds()
    {
        return LongStream.range(0, 150);
    }

    @ParameterizedTest
    @MethodSource("seeds")
    void shouldNeverLetABidPassTheBudgetNorALossRaiseCommittedMoneyAndShouldReplayIdentically(final long seed)
    {
        final List<Op> ops = generate(seed);
        final Outcome first = run(ops, seed);
        final Outcome second = run(ops, seed);
        assertThat(second.answers).isEqualTo(first.answers);
        assertThat(second.finalStates).isEqualTo(first.finalStates);
    }

    private record Op(int kind, long requestId, long campaignId, long amount, long atMillis)
    {
    }

    private record Outcome(List<Reason> answers, List<String> finalStates)
    {
    }

    private static final int BID = 0;
    private static final int WIN = 1;
    private static final int LOSS = 2;
    private static final int DEFINE = 3;
    private static final int TICK = 4;

    private static List<Op> generate(final long seed)
    {
        final SplittableRandom random = new SplittableRandom(seed);
        final List<Op> ops = new ArrayList<>(EVENTS + CAMPAIGNS);
        final List<long[]> bids = new ArrayList<>();
        long t = T0_MILLIS;
        for (long id = 0; id < CAMPAIGNS; id++)
        {
            ops.add(new Op(DEFINE, 0, id, 1 + random.nextLong(60), t));
        }
        long requestId = 0;
        for (int i = 0; i < EVENTS; i++)
        {
            // mostly forward in time, sometimes a little backwards (another ingress thread's stamp)
            t += random.nextInt(200) - 20;
            final int roll = random.nextInt(100);
            if (roll < 55 || bids.isEmpty())
            {
                final long campaignId = random.nextLong(CAMPAIGNS + 2);
                final long cpm = random.nextInt(20) == 0 ? -random.nextLong(1000) : PRICES[random.nextInt(PRICES.length)];
                ops.add(new Op(BID, ++requestId, campaignId, cpm, t));
                bids.add(new long[] {requestId, campaignId, cpm});
            }
            else if (roll < 75)
            {
                final long[] b = bids.get(random.nextInt(bids.size()));
                final long price = random.nextInt(10) == 0 ? b[2] : random.nextLong(Math.max(1, b[2]));
                ops.add(new Op(WIN, b[0], b[1], price, t));
            }
            else if (roll < 92)
            {
                final long[] b = bids.get(random.nextInt(bids.size()));
                ops.add(new Op(LOSS, b[0], b[1], 0, t));
            }
            else if (roll < 96)
            {
                ops.add(new Op(DEFINE, 0, random.nextLong(CAMPAIGNS), 1 + random.nextLong(60), t));
            }
            else
            {
                t += random.nextInt(60_000);
                ops.add(new Op(TICK, 0, 0, 0, t));
            }
        }
        return ops;
    }

    private static CampaignDefinition definition(final long id, final long budgetMicros, final long seed)
    {
        final TestCampaign c = campaign(id).budgetMicros(budgetMicros)
            .flight(Instant.ofEpochMilli(T0_MILLIS), Instant.ofEpochMilli(T0_MILLIS + 3_600_000))
            .pacing((id + seed) % 3 == 0 ? PacingMode.ASAP : PacingMode.EVEN);
        if (id % 4 == 1)
        {
            c.dailyBudgetMicros(budgetMicros / 2 + 1);
        }
        if (id % 5 == 2)
        {
            c.maxBidCpmMicros(2_000_000);
        }
        if (id % 7 == 3)
        {
            c.zone("Asia/Kolkata");
        }
        return c.build();
    }

    private static Outcome run(final List<Op> ops, final long seed)
    {
        final ShardRouter router = new ShardRouter(4);
        final PacingShard[] shards = new PacingShard[router.shards()];
        for (int i = 0; i < shards.length; i++)
        {
            shards[i] = new PacingShard(new PacingPolicy(5_000, 1_000), 64);
        }
        final long[] lateWinNanos = new long[CAMPAIGNS + 2];
        final List<Reason> answers = new ArrayList<>();
        for (final Op op : ops)
        {
            final PacingShard shard = shards[router.shardOf(op.campaignId())];
            switch (op.kind())
            {
                case BID ->
                {
                    final Reason reason = shard.bid(op.requestId(), op.campaignId(), op.amount(), op.atMillis());
                    answers.add(reason);
                    if (reason == Reason.NONE)
                    {
                        final CampaignSnapshot s = shard.snapshot(op.campaignId());
                        final long budgetNanos = Money.microsToNanos(s.definition().budgetMicros());
                        assertThat(s.spentNanos() - lateWinNanos[(int)op.campaignId()] + s.reservedNanos())
                            .as("seed %d: campaign %d after BID %d", seed, op.campaignId(), op.requestId())
                            .isLessThanOrEqualTo(budgetNanos);
                    }
                }
                case WIN ->
                {
                    final CampaignSnapshot before = shard.snapshot(op.campaignId());
                    shard.win(op.requestId(), op.campaignId(), op.amount(), op.atMillis());
                    final CampaignSnapshot after = shard.snapshot(op.campaignId());
                    if (before != null && after.lateWins() > before.lateWins())
                    {
                        lateWinNanos[(int)op.campaignId()] += Money.impressionCostNanos(op.amount());
                    }
                }
                case LOSS ->
                {
                    final CampaignSnapshot before = shard.snapshot(op.campaignId());
                    shard.loss(op.requestId(), op.campaignId(), op.atMillis());
                    final CampaignSnapshot after = shard.snapshot(op.campaignId());
                    if (before != null)
                    {
                        // the replay's audit reads no book at a loss for the peak of spent + reserved
                        assertThat(after.spentNanos() + after.reservedNanos())
                            .as("seed %d: campaign %d's committed money after LOSS %d", seed, op.campaignId(), op.requestId())
                            .isLessThanOrEqualTo(before.spentNanos() + before.reservedNanos());
                    }
                }
                case DEFINE -> shard.define(definition(op.campaignId(), op.amount(), seed), op.atMillis());
                default ->
                {
                    for (final PacingShard s : shards)
                    {
                        s.tick(op.atMillis());
                    }
                }
            }
        }
        final List<CampaignSnapshot> all = new ArrayList<>();
        for (final PacingShard shard : shards)
        {
            shard.snapshots(all);
        }
        all.sort(PacingShard.BY_ID);
        return new Outcome(answers, all.stream().map(CampaignJson::state).toList());
    }
}
