package io.pacer.cluster;

import io.pacer.cluster.sbe.IngressBatchDecoder;
import io.pacer.cluster.sbe.MessageHeaderDecoder;
import io.pacer.model.CampaignDefinition;
import io.pacer.model.CampaignDefinitionParser;
import io.pacer.model.PacingPolicy;
import io.pacer.model.PacingShard;
import io.pacer.pipeline.EventType;
import io.pacer.wire.Reason;
import org.agrona.ExpandableArrayBuffer;
import org.junit.jupiter.api.Test;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;

import static org.assertj.core.api.Assertions.assertThat;

/** The cluster service's state machine, without a cluster: what every member computes from the log. */
class PacerStateTest
{
    private static final long T0 = 1_767_225_600_000L; // 2026-01-01T00:00:00Z
    private static final int NODE_A = 0;
    private static final int NODE_B = 1;

    private final PacerState state = new PacerState(2, PacingPolicy.DEFAULT);
    private final ExpandableArrayBuffer reasons = new ExpandableArrayBuffer(64);

    private static CampaignDefinition asap(final long id, final long budgetMicros)
    {
        return CampaignDefinitionParser.parseJson("{\"id\":" + id + ",\"budgetMicros\":" + budgetMicros +
            ",\"start\":\"2026-01-01T00:00:00Z\",\"end\":\"2036-01-01T00:00:00Z\",\"pacing\":\"ASAP\"}");
    }

    /** A batch as a node encodes it. */
    private static final class Batch
    {
        final OutBatch out = new OutBatch();

        Batch(final long seq)
        {
            out.reset(seq);
        }

        Batch bid(final long requestId, final long campaignId, final long cpm)
        {
            out.add(EventType.BID_REQUEST, requestId, campaignId, cpm, 0);
            return this;
        }

        Batch win(final long requestId, final long campaignId, final long cpm)
        {
            out.add(EventType.WIN_NOTICE, requestId, campaignId, cpm, 0);
            return this;
        }

        Batch define(final EventType type, final CampaignDefinition... definitions)
        {
            final int i = out.add(type, 0, type == EventType.CAMPAIGN_UPDATE ? definitions[0].id() : 0, 0, 0);
            for (final CampaignDefinition definition : definitions)
            {
                final ByteArrayOutputStream bytes = new ByteArrayOutputStream();
                try
                {
                    definition.write(new DataOutputStream(bytes));
                }
                catch (final IOException ex)
                {
                    throw new IllegalStateException(ex);
                }
                out.addDefinition(i, new org.agrona.concurrent.UnsafeBuffer(bytes.toByteArray()), bytes.size());
            }
            return this;
        }

        Batch continues()
        {
            out.continues = true;
            return this;
        }

        IngressBatchDecoder encoded(final int origin)
        {
            out.encode(origin);
            final MessageHeaderDecoder header = new MessageHeaderDecoder();
            return new IngressBatchDecoder().wrapAndApplyHeader(out.message(), 0, header);
        }
    }

    private List<Reason> decide(final PacerState on, final int origin, final Batch batch, final long nowMillis)
    {
        final int count = on.decide(batch.encoded(origin), nowMillis, reasons);
        final List<Reason> decided = new ArrayList<>();
        for (int i = 0; i < count; i++)
        {
            decided.add(Reason.get(reasons.getByte(i)));
        }
        return decided;
    }

    @Test
    void shouldDecideABatchOnceAndAnswerItsResendWithTheSameDecisions()
    {
        decide(state, NODE_A, new Batch(1).define(EventType.CAMPAIGN_UPDATE, asap(7, 100)), T0);
        final Batch bids = new Batch(2).bid(1, 7, 60_000).bid(2, 7, 60_000);

        assertThat(decide(state, NODE_A, bids, T0 + 1)).containsExactly(Reason.NONE, Reason.BUDGET_EXHAUSTED);
        assertThat(state.wasDuplicate()).isFalse();
        assertThat(decide(state, NODE_A, bids, T0 + 2)).containsExactly(Reason.NONE, Reason.BUDGET_EXHAUSTED);
        assertThat(state.wasDuplicate()).isTrue();
        assertThat(state.shards().get(1).snapshot(7).bids()).as("decided once").isEqualTo(1);
    }

    /**
     * Shards of more campaigns than {@link PacingShard#TOUCH_FROM_CAMPAIGNS} each, so that a batch's
     * campaigns are read ahead of deciding, {@link PacingShard#NOTED} events at a time: a batch of
     * several times that many is still decided in log order, each bid by its own campaign's budget,
     * and a campaign defined in the middle of it is unknown to the bids before and known after.
     */
    @Test
    void shouldDecideALongBatchInLogOrderInShardsLargeEnoughToTouchAhead()
    {
        final PacerState large = new PacerState(2, PacingPolicy.DEFAULT);
        final int campaigns = 2 * PacingShard.TOUCH_FROM_CAMPAIGNS + 1_000;
        long seq = 1;
        for (int from = 0; from < campaigns; from += 2_000)
        {
            final List<CampaignDefinition> part = new ArrayList<>();
            for (long id = from; id < Math.min(campaigns, from + 2_000); id++)
            {
                part.add(asap(id, 2)); // 2,000 nanos
            }
            decide(large, NODE_A, new Batch(seq++).define(EventType.CAMPAIGN_BATCH, part.toArray(new CampaignDefinition[0])), T0);
        }
        final long added = campaigns + 7;
        final SplittableRandom random = new SplittableRandom(5);
        final long[] committedNanos = new long[campaigns];
        final Batch batch = new Batch(seq);
        final List<Reason> expected = new ArrayList<>();
        final int events = 5 * PacingShard.NOTED;
        for (int i = 0; i < events; i++)
        {
            if (i == events / 2)
            {
                batch.define(EventType.CAMPAIGN_UPDATE, asap(added, 2));
                expected.add(Reason.NONE);
            }
            else if (i % 10 == 0)
            {
                // before its definition unknown; after it, its budget covers two of these bids
                batch.bid(i, added, 1_000);
                expected.add(i < events / 2 ? Reason.UNKNOWN_CAMPAIGN : i < events / 2 + 30 ? Reason.NONE :
                    Reason.BUDGET_EXHAUSTED);
            }
            else
            {
                final int campaign = random.nextInt(40);
                final long cpmMicros = 1 + random.nextLong(1_500); // an impression's cost in nanos
                batch.bid(i, campaign, cpmMicros);
                final boolean fits = committedNanos[campaign] + cpmMicros <= 2_000;
                committedNanos[campaign] += fits ? cpmMicros : 0;
                expected.add(fits ? Reason.NONE : Reason.BUDGET_EXHAUSTED);
            }
        }
        assertThat(decide(large, NODE_A, batch, T0 + 1)).containsExactlyElementsOf(expected);
        assertThat(expected).contains(Reason.NONE, Reason.BUDGET_EXHAUSTED, Reason.UNKNOWN_CAMPAIGN);
    }

    @Test
    void shouldKeepEachNodesBatchesApart()
    {
        decide(state, NODE_A, new Batch(1).define(EventType.CAMPAIGN_UPDATE, asap(7, 1_000)), T0);
        decide(state, NODE_A, new Batch(2).bid(1, 7, 60_000), T0);
        assertThat(decide(state, NODE_B, new Batch(2).bid(1, 7, 60_000), T0)).as("node B's batch 2 is not node A's")
            .containsExactly(Reason.NONE);
        assertThat(state.wasDuplicate()).isFalse();
        assertThat(state.lastSeq(NODE_A)).isEqualTo(2);
        assertThat(state.lastSeq(NODE_B)).isEqualTo(2);
    }

    @Test
    void shouldApplyACampaignBatchSentInPartsOnlyWithItsLastPart()
    {
        decide(state, NODE_A, new Batch(1).define(EventType.CAMPAIGN_BATCH, asap(1, 1_000), asap(2, 1_000)).continues(), T0);
        assertThat(decide(state, NODE_B, new Batch(1).bid(10, 1, 1_000), T0)).as("no bid sees half a batch")
            .containsExactly(Reason.UNKNOWN_CAMPAIGN);
        decide(state, NODE_A, new Batch(2).define(EventType.CAMPAIGN_BATCH, asap(3, 1_000)), T0);
        assertThat(decide(state, NODE_B, new Batch(2).bid(11, 1, 1_000).bid(12, 2, 1_000).bid(13, 3, 1_000), T0))
            .containsExactly(Reason.NONE, Reason.NONE, Reason.NONE);
    }

    @Test
    void shouldDropTheFirstPartsOfACampaignBatchWhoseNodeStoppedSendingIt()
    {
        decide(state, NODE_A, new Batch(1).define(EventType.CAMPAIGN_BATCH, asap(1, 1_000)).continues(), T0);
        // the node crashed; its next life numbers its batches far above, and sends a new batch
        decide(state, NODE_A, new Batch(1L << 40).define(EventType.CAMPAIGN_BATCH, asap(2, 1_000)), T0);
        assertThat(decide(state, NODE_B, new Batch(1).bid(1, 1, 1_000).bid(2, 2, 1_000), T0))
            .containsExactly(Reason.UNKNOWN_CAMPAIGN, Reason.NONE);
        assertThat(state.abandonedParts()).isEqualTo(1);
    }

    @Test
    void shouldRefuseASnapshotTakenWithOtherPacingParameters() throws IOException
    {
        final ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        state.writeTo(new DataOutputStream(bytes));
        final PacerState other = new PacerState(2, new PacingPolicy(io.pacer.units.Units.durationMillis(5_000),
            io.pacer.units.Units.durationMillis(1_000)));
        org.assertj.core.api.Assertions.assertThatThrownBy(
                () -> other.readFrom(new DataInputStream(new ByteArrayInputStream(bytes.toByteArray()))))
            .isInstanceOf(IllegalStateException.class).hasMessageContaining("must be the same on every member");
    }

    @Test
    void shouldDecideAfterARestoredSnapshotExactlyAsTheStateItWasTakenFrom() throws IOException
    {
        decide(state, NODE_A, new Batch(1).define(EventType.CAMPAIGN_UPDATE, asap(7, 500)), T0);
        decide(state, NODE_A, new Batch(2).bid(1, 7, 200_000).win(1, 7, 100_000).bid(2, 7, 200_000), T0 + 10);
        decide(state, NODE_A, new Batch(3).define(EventType.CAMPAIGN_BATCH, asap(8, 50)).continues(), T0 + 20);
        final ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        state.writeTo(new DataOutputStream(bytes));
        final PacerState restored = new PacerState(2, PacingPolicy.DEFAULT);
        restored.readFrom(new DataInputStream(new ByteArrayInputStream(bytes.toByteArray())));

        final Batch resent = new Batch(2).bid(1, 7, 200_000).win(1, 7, 100_000).bid(2, 7, 200_000);
        assertThat(decide(restored, NODE_A, resent, T0 + 30)).isEqualTo(decide(state, NODE_A, resent, T0 + 30));
        assertThat(restored.wasDuplicate()).isTrue();
        final Batch next = new Batch(4).define(EventType.CAMPAIGN_BATCH).bid(3, 7, 200_000).bid(4, 8, 40_000)
            .bid(5, 7, 200_000);
        assertThat(decide(restored, NODE_A, next, T0 + 40)).isEqualTo(decide(state, NODE_A, next, T0 + 40))
            .containsExactly(Reason.NONE, Reason.NONE, Reason.NONE, Reason.BUDGET_EXHAUSTED);
        assertThat(restored.records()).isEqualTo(state.records());
        assertThat(restored.shards().get(1).snapshot(7)).isEqualTo(state.shards().get(1).snapshot(7));
    }

    @Test
    void shouldNumberEveryRecordedInputOnceInLogOrder()
    {
        final List<String> recorded = new ArrayList<>();
        state.recorder(new Recorder()
        {
            @Override
            public void bid(final long sequence, final long epochMillis, final long requestId, final long campaignId,
                final long cpmMicros, final int reason)
            {
                recorded.add(sequence + " bid " + requestId + " " + Reason.get((short)reason));
            }

            @Override
            public void notice(final long sequence, final boolean win, final long epochMillis, final long requestId,
                final long campaignId, final long cpmMicros)
            {
                recorded.add(sequence + (win ? " win " : " loss ") + requestId);
            }

            @Override
            public void define(final long sequence, final long epochMillis, final CampaignDefinition definition)
            {
                recorded.add(sequence + " define " + definition.id());
            }

            @Override
            public void tick(final long sequence, final long epochMillis)
            {
                recorded.add(sequence + " tick");
            }

            @Override
            public void endOfBatch()
            {
            }
        });
        decide(state, NODE_A, new Batch(1).define(EventType.CAMPAIGN_UPDATE, asap(7, 500)), T0);
        final Batch bids = new Batch(2).bid(1, 7, 200_000).win(1, 7, 100_000);
        decide(state, NODE_A, bids, T0);
        decide(state, NODE_A, bids, T0);
        state.tick(T0 + 5);
        assertThat(recorded).containsExactly("0 define 7", "1 bid 1 NONE", "2 win 1", "3 tick");
    }
}
