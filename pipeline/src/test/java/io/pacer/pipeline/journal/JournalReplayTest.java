package io.pacer.pipeline.journal;

import io.pacer.model.CampaignDefinition;
import io.pacer.model.CampaignDefinitionParser;
import io.pacer.model.PacingPolicy;
import io.pacer.model.PacingShard;
import io.pacer.pipeline.EventType;
import io.pacer.pipeline.PacerEvent;
import io.pacer.pipeline.PacingStep;
import io.pacer.units.Units;
import io.pacer.wire.Reason;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.RandomAccessFile;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Replay applies bids and notices in blocks, touching a block's state before applying it: the
 * result is what applying each record in journal order gives, whatever the block boundaries, and
 * the records read before the end of a journal (or before a corrupt record that recovery cuts)
 * are all applied.
 */
class JournalReplayTest
{
    private static final long T0 = 1_767_225_600_000L; // 2026-01-01T00:00:00Z
    private static final String CAMPAIGN_7 = "{\"id\":7,\"budgetMicros\":1000000,\"dailyBudgetMicros\":0," +
        "\"start\":\"2026-01-01T00:00:00Z\",\"end\":\"2027-01-01T00:00:00Z\",\"timeZone\":\"UTC\"," +
        "\"maxBidCpmMicros\":0,\"pacing\":\"ASAP\",\"status\":\"ACTIVE\"}";
    private static final int BID_RECORD_BYTES = 52;

    @TempDir
    Path dir;

    @Test
    void shouldApplyEveryRecordInJournalOrderWhateverTheBlockBoundaries()
    {
        final int bids = 3 * JournalReplay.BLOCK + 5;
        try (JournalWriter w = writer())
        {
            w.define(T0, CampaignDefinitionParser.parseJson(CAMPAIGN_7));
            for (int i = 0; i < bids; i++)
            {
                w.bid(T0 + i, i, 7, 400_000_000, 0);
                if (i % 3 == 0)
                {
                    w.notice(i % 2 == 0, T0 + i, i, 7, 300_000_000);
                }
                if (i == JournalReplay.BLOCK + 2)
                {
                    w.tick(T0 + i);
                }
            }
            w.endOfBatch();
        }

        final List<Long> order = new ArrayList<>();
        final JournalReplay replay = JournalReplay.ofJournal(new JournalReader(dir),
            (record, replayed, shard) -> order.add(record.sequence()));

        final PacingShard oneByOne = new PacingShard(PacingPolicy.DEFAULT, 16);
        final List<Reason> decided = new ArrayList<>();
        new JournalReader(dir).read((r, header) ->
        {
            final CampaignDefinition definition =
                r.type() == EventType.CAMPAIGN_UPDATE ? CampaignDefinitionParser.parseJson(r.definitionJson()) : null;
            final Reason reason = PacingStep.apply(oneByOne, r.type(), r.requestId(), r.campaignId(), r.cpmMicros(),
                r.epochMillis(), definition);
            if (r.type() == EventType.BID_REQUEST)
            {
                decided.add(reason);
            }
        }, false);

        assertThat(replay.events()).isEqualTo(order.size());
        assertThat(order).isSorted().hasSize(1 + bids + (bids + 2) / 3 + 1);
        // every bid was journaled as a BID: the replay differs exactly where one-by-one application does
        assertThat(decided).contains(Reason.NONE, Reason.BUDGET_EXHAUSTED);
        assertThat(replay.mismatches()).isEqualTo(decided.stream().filter(r -> r != Reason.NONE).count());
        assertThat(replay.state(7)).isEqualTo(oneByOne.snapshot(7));
        assertThat(replay.shards().get(0).openReservations()).isEqualTo(oneByOne.openReservations()).isPositive();
    }

    @Test
    void shouldRecoverTheBidsReadBeforeACorruptRecordThatRecoveryCuts() throws Exception
    {
        final long beforeBids;
        try (JournalWriter w = writer())
        {
            w.define(T0, CampaignDefinitionParser.parseJson(CAMPAIGN_7));
            w.endOfBatch();
            beforeBids = Files.size(JournalReader.segments(dir).get(0));
            for (int i = 0; i < 6; i++)
            {
                w.bid(T0 + i, i, 7, 1_000_000, 0);
            }
            w.endOfBatch();
        }
        // the fourth bid's payload: three bids, fewer than a block, come before it
        try (RandomAccessFile file = new RandomAccessFile(JournalReader.segments(dir).get(0).toFile(), "rw"))
        {
            final long at = beforeBids + 3L * BID_RECORD_BYTES + 20;
            file.seek(at);
            final int b = file.read();
            file.seek(at);
            file.write(b ^ 0x40);
        }

        final PacingShard shard = new PacingShard(PacingPolicy.DEFAULT, 16);
        try (JournalWriter resumed = writer())
        {
            final JournalRecovery.Result result = JournalRecovery.recover(dir, List.of(shard), PacingPolicy.DEFAULT,
                resumed, true);
            assertThat(result.replayedEvents()).isEqualTo(4);
        }
        assertThat(shard.openReservations()).isEqualTo(3);
        assertThat(shard.snapshot(7).reservedNanos()).isPositive();
    }

    /**
     * A recovery's replay defers the dedupe index's side of expiry (its table sized by the census);
     * the shard it hands to live traffic still books a notice resent within the window once, and one
     * resent after the window anew.
     */
    @Test
    void shouldDedupeLiveNoticesAfterARecoveryWhoseReplayDeferredExpiry()
    {
        final PacingPolicy policy = new PacingPolicy(Units.durationMillis(1_000), Units.durationMillis(1_000),
            Units.durationMillis(2_000));
        // a loss a millisecond for three windows, the replay's ring coming round to passed notices; every
        // tenth resends the loss of 1 s before (a duplicate), or from 3 s on, of 3 s before (booked anew)
        try (JournalWriter w = writer(policy))
        {
            w.define(T0, CampaignDefinitionParser.parseJson(CAMPAIGN_7));
            for (int i = 0; i < 6_000; i++)
            {
                w.notice(false, T0 + i, i, 7, PacerEvent.NO_PRICE);
                if (i % 10 == 5 && i >= 1_000)
                {
                    w.notice(false, T0 + i, i - 1_000, 7, PacerEvent.NO_PRICE);
                }
                if (i % 10 == 0 && i >= 3_000)
                {
                    w.notice(false, T0 + i, i - 3_000, 7, PacerEvent.NO_PRICE);
                }
            }
            w.endOfBatch();
        }
        final PacingShard shard = new PacingShard(policy, 16);
        try (JournalWriter resumed = writer(policy))
        {
            JournalRecovery.recover(dir, List.of(shard), policy, resumed, true);
        }
        assertThat(shard.counters().duplicateNotices()).as("the resends within the window").isEqualTo(500);
        assertThat(shard.settledNotices()).as("settled at T0 + 4,000 ms and after, 200 of them anew").isEqualTo(2_200);

        shard.loss(5_999, 7, T0 + 6_000);
        assertThat(shard.counters().duplicateNotices()).as("within the window: booked once").isEqualTo(501);
        // settled at T0 + 100 ms, and anew at T0 + 3,100 ms: past the window both times
        shard.loss(100, 7, T0 + 6_000);
        assertThat(shard.counters().duplicateNotices()).as("past the window: booked anew").isEqualTo(501);
        shard.loss(100, 7, T0 + 6_001);
        assertThat(shard.counters().duplicateNotices()).isEqualTo(502);
    }

    private JournalWriter writer()
    {
        return writer(PacingPolicy.DEFAULT);
    }

    private JournalWriter writer(final PacingPolicy policy)
    {
        return new JournalWriter(dir, 0, 1, policy, 1 << 20, JournalWriter.FsyncPolicy.NEVER, 100);
    }
}
