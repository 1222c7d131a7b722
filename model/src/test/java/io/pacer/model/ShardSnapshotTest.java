package io.pacer.model;

import io.pacer.wire.Reason;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;

import static io.pacer.model.TestCampaign.T0_MILLIS;
import static io.pacer.model.TestCampaign.campaign;
import static org.assertj.core.api.Assertions.assertThat;

/** A shard restored from a snapshot decides exactly as the shard it was taken from. */
class ShardSnapshotTest
{
    @ParameterizedTest
    @ValueSource(longs = {1, 2, 3, 4, 5, 6, 7, 8})
    void shouldDecideExactlyAsTheOriginalAfterRestore(final long seed) throws Exception
    {
        shouldDecideExactlyAsTheOriginalAfterRestore(seed, false);
    }

    /** Snapshot files before version 5 kept definitions as JSON; a journal whose segments were retired still needs them. */
    @ParameterizedTest
    @ValueSource(longs = {1, 2, 3})
    void shouldDecideExactlyAsTheOriginalAfterRestoringAStateWithJsonDefinitions(final long seed) throws Exception
    {
        shouldDecideExactlyAsTheOriginalAfterRestore(seed, true);
    }

    private static void shouldDecideExactlyAsTheOriginalAfterRestore(final long seed, final boolean json) throws Exception
    {
        final PacingPolicy policy = new PacingPolicy(5_000, 1_000);
        final PacingShard original = new PacingShard(policy, 16);
        final SplittableRandom random = new SplittableRandom(seed);
        for (long id = 0; id < 6; id++)
        {
            final TestCampaign c = campaign(id).budgetMicros(20 + random.nextLong(40))
                .pacing(id % 2 == 0 ? PacingMode.EVEN : PacingMode.ASAP).zone(id % 3 == 0 ? "Asia/Kolkata" : "UTC");
            if (id % 3 == 1)
            {
                c.dailyBudgetMicros(15);
            }
            original.define(c.build(), T0_MILLIS);
        }
        long t = T0_MILLIS;
        long requestId = 0;
        t = drive(original, random, t, 2_000, requestId, new ArrayList<>());
        requestId = 10_000;

        final ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        original.snapshotTo(new DataOutputStream(bytes), json);
        final PacingShard restored = new PacingShard(policy, 16);
        restored.restoreFrom(new DataInputStream(new ByteArrayInputStream(bytes.toByteArray())), json);

        final List<Reason> a = new ArrayList<>();
        final List<Reason> b = new ArrayList<>();
        drive(original, new SplittableRandom(seed * 31), t, 2_000, requestId, a);
        drive(restored, new SplittableRandom(seed * 31), t, 2_000, requestId, b);
        assertThat(b).isEqualTo(a);
        final List<CampaignSnapshot> sa = new ArrayList<>();
        final List<CampaignSnapshot> sb = new ArrayList<>();
        original.snapshots(sa);
        restored.snapshots(sb);
        assertThat(sb.stream().map(CampaignJson::state).toList()).isEqualTo(sa.stream().map(CampaignJson::state).toList());
        assertThat(restored.openReservations()).isEqualTo(original.openReservations());
        assertThat(restored.counters().decisions(Reason.NONE)).isEqualTo(original.counters().decisions(Reason.NONE));
    }

    private static long drive(final PacingShard shard, final SplittableRandom random, final long from, final int events,
        final long firstRequestId, final List<Reason> answers)
    {
        long t = from;
        long requestId = firstRequestId;
        for (int i = 0; i < events; i++)
        {
            t += random.nextInt(400);
            final int roll = random.nextInt(10);
            final long campaignId = random.nextLong(7);
            if (roll < 6)
            {
                answers.add(shard.bid(++requestId, campaignId, 1 + random.nextLong(3_000), t));
            }
            else if (roll < 8)
            {
                shard.win(requestId - random.nextInt(5), campaignId, random.nextLong(2_000), t);
            }
            else
            {
                shard.loss(requestId - random.nextInt(5), campaignId, t);
            }
        }
        return t;
    }
}
