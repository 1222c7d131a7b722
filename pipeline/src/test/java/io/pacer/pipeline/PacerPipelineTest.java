package io.pacer.pipeline;

import io.pacer.model.CampaignDefinition;
import io.pacer.model.CampaignSnapshot;
import io.pacer.model.CampaignStatus;
import io.pacer.model.PacingMode;
import io.pacer.model.PacingPolicy;
import io.pacer.model.PacingShard;
import org.agrona.concurrent.CachedEpochClock;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.time.Instant;
import java.time.ZoneId;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class PacerPipelineTest
{
    private static final Instant T0 = Instant.parse("2026-12-02T00:00:00Z");
    private final CachedEpochClock clock = new CachedEpochClock();
    private PacerPipeline pipeline;

    private PacerPipeline start(final int shards)
    {
        return start(shards, 0);
    }

    private PacerPipeline start(final int shards, final long queueDeadlineNanos)
    {
        clock.update(T0.toEpochMilli() + 1000);
        // ticks far apart: these tests publish their own time
        pipeline = new PacerPipeline(
            new PipelineConfig(shards, 256, "blocking", 3_600_000, PacingPolicy.DEFAULT, queueDeadlineNanos,
                PipelineConfig.TEST_THREADING),
            clock, Replier.DecisionListener.NONE);
        pipeline.start();
        return pipeline;
    }

    @AfterEach
    void stop()
    {
        if (pipeline != null)
        {
            pipeline.close();
        }
    }

    private static CampaignDefinition campaign(final long id, final long budgetMicros)
    {
        return new CampaignDefinition(id, budgetMicros, 0, T0, T0.plusSeconds(86_400), ZoneId.of("UTC"), 0,
            PacingMode.ASAP, CampaignStatus.ACTIVE);
    }

    private CampaignSnapshot define(final CampaignDefinition d) throws Exception
    {
        return pipeline.submit(AdminCommand.update(d, pipeline.shardCount())).get(10, TimeUnit.SECONDS).get(0);
    }

    @Test
    void shouldAnswerEachBidWithTheOwningShardsDecision() throws Exception
    {
        start(2);
        define(campaign(1, 10));
        define(campaign(2, 10));
        final CollectingResponder responder = new CollectingResponder();
        pipeline.tryPublishBid(100, 1, 10_000, responder);
        pipeline.wake();
        pipeline.tryPublishBid(101, 2, 10_000, responder);
        pipeline.wake();
        pipeline.tryPublishBid(102, 1, 1, responder);
        pipeline.wake();
        pipeline.tryPublishBid(103, 3, 1, responder);
        pipeline.wake();
        assertThat(responder.awaitAnswers(4)).containsExactly(
            "100:NONE", "101:NONE", "102:BUDGET_EXHAUSTED", "103:UNKNOWN_CAMPAIGN");
    }

    @Test
    void shouldApplyUpdateToTheVeryNextRequestInRingOrder() throws Exception
    {
        start(2);
        define(campaign(1, 100));
        final CollectingResponder responder = new CollectingResponder();
        pipeline.tryPublishBid(1, 1, 40_000, responder);
        pipeline.wake();
        final AdminCommand lower = pipeline.submit(AdminCommand.update(campaign(1, 50), 2));
        pipeline.tryPublishBid(2, 1, 40_000, responder);
        pipeline.wake();
        assertThat(responder.awaitAnswers(2)).containsExactly("1:NONE", "2:BUDGET_EXHAUSTED");
        assertThat(lower.get(10, TimeUnit.SECONDS).get(0).reservedNanos()).isEqualTo(40_000);
    }

    @Test
    void shouldReadConsistentStateOfOneOrAllCampaignsThroughTheRing() throws Exception
    {
        start(4);
        for (long id = 8; id >= 1; id--)
        {
            define(campaign(id, 100));
        }
        final CollectingResponder responder = new CollectingResponder();
        pipeline.tryPublishBid(1, 3, 7_000, responder);
        pipeline.wake();
        pipeline.publishNotice(true, 1, 3, 5_000);
        final List<CampaignSnapshot> one = pipeline.submit(AdminCommand.query(3, 4)).get(10, TimeUnit.SECONDS);
        assertThat(one).hasSize(1);
        assertThat(one.get(0).spentNanos()).isEqualTo(5_000);
        assertThat(one.get(0).reservedNanos()).isZero();
        final List<CampaignSnapshot> all = pipeline.submit(AdminCommand.queryAll(4)).get(10, TimeUnit.SECONDS);
        assertThat(all).extracting(s -> s.definition().id()).containsExactly(1L, 2L, 3L, 4L, 5L, 6L, 7L, 8L);
        assertThat(pipeline.submit(AdminCommand.query(99, 4)).get(10, TimeUnit.SECONDS)).isEmpty();
    }

    @Test
    void shouldFreeBudgetOnLossNoticeInRingOrder() throws Exception
    {
        start(1);
        define(campaign(1, 10));
        final CollectingResponder responder = new CollectingResponder();
        pipeline.tryPublishBid(1, 1, 10_000, responder);
        pipeline.wake();
        pipeline.tryPublishBid(2, 1, 10_000, responder);
        pipeline.wake();
        pipeline.publishNotice(false, 1, 1, 0);
        pipeline.tryPublishBid(3, 1, 10_000, responder);
        pipeline.wake();
        assertThat(responder.awaitAnswers(3)).containsExactly("1:NONE", "2:BUDGET_EXHAUSTED", "3:NONE");
    }

    @Test
    void shouldAnswerAndCountAFailingEventAndKeepTheShardAlive() throws Exception
    {
        start(2);
        define(campaign(1, 100));
        final CollectingResponder responder = new CollectingResponder();
        final long sequence = pipeline.ring().next();
        final PacerEvent poisoned = pipeline.ring().get(sequence);
        poisoned.bidRequest(66, 1, 1_000, clock.time(), System.nanoTime(), responder);
        poisoned.type = null;
        pipeline.ring().publish(sequence);
        pipeline.wake();
        pipeline.tryPublishBid(67, 1, 1_000, responder);
        pipeline.wake();
        assertThat(responder.awaitAnswers(2)).containsExactly("66:OVERLOADED", "67:NONE");
        assertThat(pipeline.handlerFailures()).isGreaterThanOrEqualTo(1);
    }

    @Test
    void shouldCloseAnEndedStreamOnlyAfterItsEarlierAnswers() throws Exception
    {
        start(2);
        define(campaign(1, 100));
        final CollectingResponder responder = new CollectingResponder();
        pipeline.tryPublishBid(1, 1, 1_000, responder);
        pipeline.wake();
        pipeline.tryPublishBid(2, 2, 1_000, responder);
        pipeline.wake();
        assertThat(pipeline.tryPublishEndOfStream(responder)).isTrue();
        assertThat(responder.awaitAnswers(3)).containsExactly("1:NONE", "2:UNKNOWN_CAMPAIGN", "closed");
    }

    @Test
    void shouldFlushEachConnectionAtMostOncePerBatch() throws Exception
    {
        start(2);
        define(campaign(1, 1_000_000));
        final CollectingResponder responder = new CollectingResponder();
        for (int i = 0; i < 200; i++)
        {
            pipeline.tryPublishBid(i, 1, 1_000, responder);
            pipeline.wake();
        }
        assertThat(responder.awaitAnswers(200)).hasSize(200);
        assertThat(responder.flushes()).isBetween(1, 200);
    }

    /**
     * A load sent in batches, each saying how many definitions are left in the load (as the
     * campaigns-file watcher sends a change): the first batch makes room for every shard's share,
     * and every campaign is there afterwards with its own definition.
     */
    @Test
    void shouldApplyALoadSentInBatchesThatCarryTheLoadsSize() throws Exception
    {
        start(2);
        final int campaigns = 25_000;
        final List<CampaignDefinition> definitions = new ArrayList<>();
        for (long id = 1; id <= campaigns; id++)
        {
            definitions.add(campaign(id, id));
        }
        for (int from = 0; from < campaigns; from += 10_000)
        {
            final List<CampaignDefinition> batch = definitions.subList(from, Math.min(campaigns, from + 10_000));
            pipeline.submit(AdminCommand.updateAll(batch, campaigns - from, 2)).get(60, TimeUnit.SECONDS);
        }

        final List<CampaignSnapshot> states = pipeline.submit(AdminCommand.queryAll(2)).get(60, TimeUnit.SECONDS);
        assertThat(states).hasSize(campaigns);
        for (final CampaignSnapshot state : states)
        {
            assertThat(state.definition().budgetMicros()).isEqualTo(state.definition().id());
        }
    }

    @Test
    void shouldRefuseABatchLargerThanTheLoadItIsSaidToBePartOf()
    {
        final List<CampaignDefinition> batch = List.of(campaign(1, 1), campaign(2, 1));

        assertThatThrownBy(() -> AdminCommand.updateAll(batch, 1, 1)).isInstanceOf(IllegalArgumentException.class)
            .hasMessageContaining("a load of 1 definitions cannot hold a batch of 2");
    }

    /**
     * Shards of more campaigns than {@link PacingShard#TOUCH_FROM_CAMPAIGNS} each: each batch's
     * campaigns are read ahead of deciding (by the handler on a thread of its own, or once for all
     * the shards by the loop they share), and every bid is still decided by its own campaign's
     * budget, in ring order.
     */
    @ParameterizedTest(name = "{0} shards")
    @ValueSource(ints = {1, 4})
    void shouldDecideEachBidByItsOwnCampaignsBudgetInShardsLargeEnoughToTouchAhead(final int shards) throws Exception
    {
        start(shards);
        final int campaigns = shards * PacingShard.TOUCH_FROM_CAMPAIGNS + 1_000;
        final long budgetMicros = 2;
        final List<CampaignDefinition> definitions = new ArrayList<>();
        for (long id = 0; id < campaigns; id++)
        {
            definitions.add(campaign(id, budgetMicros));
        }
        pipeline.submit(AdminCommand.updateAll(definitions, shards)).get(60, TimeUnit.SECONDS);

        final SplittableRandom random = new SplittableRandom(11);
        final long[] committedNanos = new long[campaigns];
        final List<String> expected = new ArrayList<>();
        final CollectingResponder responder = new CollectingResponder();
        final int bids = 20_000;
        for (int i = 0; i < bids; i++)
        {
            // half the bids on a hundred campaigns, so that budgets run out; some on unknown ids
            final long campaignId = random.nextBoolean() ? random.nextLong(100) : random.nextLong(campaigns + 100);
            final long bidCpmMicros = 1 + random.nextLong(1_500);
            final String reason;
            if (campaignId >= campaigns)
            {
                reason = "UNKNOWN_CAMPAIGN";
            }
            else if (committedNanos[(int)campaignId] + bidCpmMicros > budgetMicros * 1_000)
            {
                reason = "BUDGET_EXHAUSTED";
            }
            else
            {
                committedNanos[(int)campaignId] += bidCpmMicros; // a CPM in micros is an impression's cost in nanos
                reason = "NONE";
            }
            expected.add(i + ":" + reason);
            while (!pipeline.tryPublishBid(i, campaignId, bidCpmMicros, responder))
            {
                pipeline.wake();
                Thread.onSpinWait();
            }
            pipeline.wake();
        }
        assertThat(responder.awaitAnswers(bids)).containsExactlyElementsOf(expected);
        assertThat(expected).anyMatch(a -> a.endsWith(":NONE")).anyMatch(a -> a.endsWith(":BUDGET_EXHAUSTED"))
            .anyMatch(a -> a.endsWith(":UNKNOWN_CAMPAIGN"));
    }

    @Test
    void shouldGiveIdenticalAnswersForTheSameInputSequence() throws Exception
    {
        final List<String> first = runRandomSequence(42);
        pipeline.close();
        final List<String> second = runRandomSequence(42);
        assertThat(second).isEqualTo(first);
        assertThat(first).anyMatch(a -> a.endsWith(":NONE")).anyMatch(a -> a.endsWith(":BUDGET_EXHAUSTED"));
    }

    private List<String> runRandomSequence(final long seed) throws Exception
    {
        start(2);
        final SplittableRandom random = new SplittableRandom(seed);
        for (long id = 0; id < 8; id++)
        {
            define(campaign(id, 20 + random.nextLong(50)));
        }
        final CollectingResponder responder = new CollectingResponder();
        final int bids = 2_000;
        for (int i = 0; i < bids; i++)
        {
            // one producer thread here, so ring order is publication order
            clock.advance(random.nextInt(3));
            final long campaignId = random.nextLong(9);
            final long bidCpmMicros = 1 + random.nextLong(3_000);
            while (!pipeline.tryPublishBid(i, campaignId, bidCpmMicros, responder))
            {
                pipeline.wake();
                Thread.onSpinWait();
            }
            pipeline.wake();
            if (random.nextInt(3) == 0)
            {
                pipeline.publishNotice(random.nextBoolean(), random.nextInt(i + 1), campaignId, random.nextLong(1_000));
            }
        }
        final List<String> answers = responder.awaitAnswers(bids);
        final List<CampaignSnapshot> all = pipeline.submit(AdminCommand.queryAll(2)).get(10, TimeUnit.SECONDS);
        answers.add(all.toString());
        return answers;
    }

    @Test
    void shouldShedBidThatWaitedPastTheQueueDeadlineWithoutTouchingTheCampaign() throws Exception
    {
        start(1, TimeUnit.MILLISECONDS.toNanos(50));
        define(campaign(1, 100));
        final CollectingResponder responder = new CollectingResponder();
        // decoded a second ago, as if it had waited behind a backlog
        final long sequence = pipeline.ring().next();
        pipeline.ring().get(sequence).bidRequest(1, 1, 40_000, clock.time(), System.nanoTime() - 1_000_000_000L, responder);
        pipeline.ring().publish(sequence);
        pipeline.wake();
        pipeline.tryPublishBid(2, 1, 40_000, responder);
        pipeline.wake();
        assertThat(responder.awaitAnswers(2)).containsExactly("1:OVERLOADED", "2:NONE");
        assertThat(pipeline.shards().get(0).deadlineShed()).isEqualTo(1);
        final CampaignSnapshot state = pipeline.submit(AdminCommand.query(1, 1)).get(10, TimeUnit.SECONDS).get(0);
        assertThat(state.reservedNanos()).as("only the second bid reserved").isEqualTo(40_000);
    }

    @Test
    void shouldPublishNoticeOnlyWhenTheRingHasRoom() throws Exception
    {
        start(1);
        define(campaign(1, 100));
        final CollectingResponder responder = new CollectingResponder();
        pipeline.tryPublishBid(1, 1, 40_000, responder);
        pipeline.wake();
        responder.awaitAnswers(1);
        // fill the ring with claimed but unpublished slots: nothing can move
        final long size = pipeline.config().ringSize();
        final long first = pipeline.ring().next((int)size);
        assertThat(pipeline.tryPublishNotice(true, 1, 1, 30_000)).isFalse();
        assertThat(pipeline.tryPublishEndOfStream(responder)).isFalse();
        for (long s = first - size + 1; s <= first; s++)
        {
            pipeline.ring().get(s).tick(clock.time(), System.nanoTime());
        }
        pipeline.ring().publish(first - size + 1, first);
        pipeline.wake();
        final long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (!pipeline.tryPublishNotice(true, 1, 1, 30_000))
        {
            pipeline.wake();
            assertThat(System.nanoTime() - deadline).as("room within 10 s").isNegative();
            Thread.onSpinWait();
        }
        final CampaignSnapshot state = pipeline.submit(AdminCommand.query(1, 1)).get(10, TimeUnit.SECONDS).get(0);
        assertThat(state.spentNanos()).isEqualTo(30_000);
    }
}
