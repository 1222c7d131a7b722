package io.pacer.pipeline;

import io.pacer.model.CampaignDefinition;
import io.pacer.model.CampaignDefinitionParser;
import io.pacer.model.CampaignStatus;
import io.pacer.model.PacingMode;
import io.pacer.model.PacingPolicy;
import io.pacer.pipeline.journal.JournalReader;
import io.pacer.pipeline.journal.JournalReplay;
import io.pacer.pipeline.journal.JournalWriter;
import io.pacer.pipeline.journal.Journaler;
import io.pacer.pipeline.journal.WritingJournaler;
import io.pacer.wire.Reason;
import org.agrona.concurrent.CachedEpochClock;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.time.ZoneId;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Live handling and replay take one dispatch step ({@link PacingStep}): journaling what replay
 * re-decides gives, byte for byte, the journal the live pipeline wrote for the same seeded input,
 * bulk updates (one ring event, one journal record per campaign) included.
 */
class LiveAndReplayJournalTest
{
    private static final Instant T0 = Instant.parse("2026-12-02T00:00:00Z");
    private static final int SHARDS = 2;
    private static final long SEGMENT_BYTES = 64L << 20;

    @TempDir
    Path temp;

    @Test
    void shouldWriteTheSameJournalLiveAndInReplayForASeededRandomInput() throws Exception
    {
        final Path live = Files.createDirectory(temp.resolve("live"));
        final Path replayed = Files.createDirectory(temp.resolve("replayed"));
        runLive(live, 42);

        final Journaler rejournal = new WritingJournaler(writer(replayed));
        final PacerEvent event = new PacerEvent();
        final JournalReplay replay = JournalReplay.ofJournal(new JournalReader(live), (record, decided, shard) ->
        {
            switch (record.type())
            {
                case BID_REQUEST ->
                {
                    event.bidRequest(record.requestId(), record.campaignId(), record.cpmMicros(), record.epochMillis(), 0, null);
                    event.reason = decided;
                }
                case WIN_NOTICE, LOSS_NOTICE -> event.notice(record.type() == EventType.WIN_NOTICE, record.requestId(),
                    record.campaignId(), record.cpmMicros(), record.epochMillis(), 0);
                case CAMPAIGN_UPDATE -> event.admin(
                    AdminCommand.update(CampaignDefinitionParser.parseJson(record.definitionJson()), SHARDS),
                    record.epochMillis(), 0);
                default -> event.tick(record.epochMillis(), 0);
            }
            rejournal.append(event);
            rejournal.endOfBatch();
        });
        rejournal.close();

        assertThat(replay.mismatches()).isZero();
        assertThat(replay.events()).isGreaterThan(2_000);
        final List<Path> liveSegments = segments(live);
        assertThat(liveSegments).hasSize(1);
        assertThat(segments(replayed)).hasSize(1);
        assertThat(Files.readAllBytes(segments(replayed).get(0))).isEqualTo(Files.readAllBytes(liveSegments.get(0)));
    }

    /** The live pipeline, journaling: campaigns, then seeded bids, notices, ticks and queries. */
    private static void runLive(final Path dir, final long seed) throws Exception
    {
        final CachedEpochClock clock = new CachedEpochClock();
        clock.update(T0.toEpochMilli() + 1_000);
        final PacerPipeline pipeline = new PacerPipeline(
            new PipelineConfig(SHARDS, 256, "blocking", 3_600_000, PacingPolicy.DEFAULT, 0, PipelineConfig.TEST_THREADING),
            clock, Replier.DecisionListener.NONE, new WritingJournaler(writer(dir)), null);
        pipeline.start();
        try
        {
            final SplittableRandom random = new SplittableRandom(seed);
            for (long id = 0; id < 8; id++)
            {
                final PacingMode pacing = id % 2 == 0 ? PacingMode.ASAP : PacingMode.EVEN;
                pipeline.submit(AdminCommand.update(new CampaignDefinition(id, 20 + random.nextLong(50), 0, T0,
                    T0.plusSeconds(3_600), ZoneId.of("UTC"), 0, pacing, CampaignStatus.ACTIVE), SHARDS))
                    .get(10, TimeUnit.SECONDS);
            }
            final CollectingResponder responder = new CollectingResponder();
            final int bids = 2_000;
            for (int i = 0; i < bids; i++)
            {
                clock.advance(random.nextInt(200));
                final long campaignId = random.nextLong(9);
                while (!pipeline.tryPublishBid(i, campaignId, 1 + random.nextLong(3_000), responder))
                {
                    pipeline.wake();
                    Thread.onSpinWait();
                }
                pipeline.wake();
                switch (random.nextInt(8))
                {
                    case 0 -> pipeline.publishNotice(true, random.nextInt(i + 1), campaignId, random.nextLong(1_000));
                    case 1 -> pipeline.publishNotice(false, random.nextInt(i + 1), campaignId, 0);
                    case 2 -> pipeline.publishTick();
                    case 3 -> pipeline.submit(AdminCommand.query(campaignId, SHARDS));
                    case 4 ->
                    {
                        // a bulk update of two campaigns, one ring event journaled as two update records
                        final long first = random.nextLong(8);
                        final List<CampaignDefinition> batch = List.of(campaign(first, 20 + random.nextLong(80)),
                            campaign((first + 1) % 8, 20 + random.nextLong(80)));
                        pipeline.submit(AdminCommand.updateAll(batch, SHARDS));
                    }
                    default ->
                    {
                        // a bid alone
                    }
                }
            }
            assertThat(responder.awaitAnswers(bids)).anyMatch(a -> a.endsWith(":" + Reason.NONE))
                .anyMatch(a -> a.endsWith(":" + Reason.BUDGET_EXHAUSTED));
        }
        finally
        {
            pipeline.close();
        }
    }

    private static CampaignDefinition campaign(final long id, final long budgetMicros)
    {
        return new CampaignDefinition(id, budgetMicros, 0, T0, T0.plusSeconds(3_600), ZoneId.of("UTC"), 0,
            id % 2 == 0 ? PacingMode.ASAP : PacingMode.EVEN, CampaignStatus.ACTIVE);
    }

    private static JournalWriter writer(final Path dir)
    {
        return new JournalWriter(dir, 0, SHARDS, PacingPolicy.DEFAULT, SEGMENT_BYTES, JournalWriter.FsyncPolicy.NEVER, 0);
    }

    private static List<Path> segments(final Path dir) throws Exception
    {
        try (Stream<Path> files = Files.list(dir))
        {
            return files.filter(f -> f.getFileName().toString().startsWith("journal-")).sorted().toList();
        }
    }
}
