package io.pacer.pipeline.journal;

import io.pacer.model.CampaignDefinitionParser;
import io.pacer.model.PacingPolicy;
import io.pacer.units.Units;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.RandomAccessFile;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The census estimates, per shard, the most notices a dedupe window holds in a journal, across
 * segment boundaries: at least the true most, and at most a bucket's worth (an eighth of a window)
 * more; it stops quietly where the journal cannot be read.
 */
class NoticeCensusTest
{
    private static final long T0 = 1_767_225_600_000L; // 2026-01-01T00:00:00Z
    private static final PacingPolicy FOUR_SECOND_WINDOW = new PacingPolicy(Units.durationMillis(500),
        Units.durationMillis(1_000), Units.durationMillis(4_000));

    @TempDir
    Path dir;

    @Test
    void shouldCountTheMostNoticesOneWindowHoldsPerShardAcrossSegments() throws Exception
    {
        // segments of ~1 s of this journal, a window of 4 s: every window spans several segments
        try (JournalWriter w = new JournalWriter(dir, 0, 2, FOUR_SECOND_WINDOW, 16 * 1024, JournalWriter.FsyncPolicy.NEVER, 100))
        {
            long request = 0;
            for (int ms = 0; ms < 10_000; ms += 10)
            {
                // shard 0 (even campaigns): one notice every 10 ms, 400 a window, all along
                w.notice(ms % 20 == 0, T0 + ms, request++, 2, 1_000);
                w.bid(T0 + ms, request++, 3, 1_000, 0);
                w.tick(T0 + ms);
                w.endOfBatch();
            }
            // shard 1 (odd campaigns): 300 in one millisecond, then 50 more three seconds on, over several segments
            for (int i = 0; i < 350; i++)
            {
                w.notice(i % 2 == 0, T0 + (i < 300 ? 10_000 : 13_000), request++, i % 2 == 0 ? 3 : 5, 1_000);
                w.tick(T0 + (i < 300 ? 10_000 : 13_000));
                if (i % 10 == 9)
                {
                    w.endOfBatch();
                }
            }
        }
        final List<Path> segments = JournalReader.segments(dir);
        assertThat(segments).as("segments shorter than the window").hasSizeGreaterThan(8);

        final NoticeCensus census = new JournalReader(dir).countNotices(segments);

        assertThat(census.shards()).isEqualTo(2);
        assertThat(census.expected(0)).isBetween(400, 400 + 400 / 8 + 1);
        assertThat(census.expected(1)).isEqualTo(350);
    }

    @Test
    void shouldEstimateWhatOnePassWouldWhenTheSegmentsAreCountedInTwoHalves() throws Exception
    {
        final java.util.SplittableRandom random = new java.util.SplittableRandom(14);
        for (int round = 0; round < 24; round++)
        {
            final Path journal = Files.createDirectories(dir.resolve("journal-" + round));
            final int shards = 1 << random.nextInt(3);
            final long windowMillis = 1_000 + 500L * random.nextInt(7);
            final PacingPolicy policy = new PacingPolicy(Units.durationMillis(500), Units.durationMillis(1_000),
                Units.durationMillis(windowMillis));
            try (JournalWriter w = new JournalWriter(journal, 0, shards, policy, 2_048 + random.nextInt(16_384),
                JournalWriter.FsyncPolicy.NEVER, 100))
            {
                long millis = T0;
                for (int i = 0; i < 3_000; i++)
                {
                    // mostly forward, in bursts and lulls; now and then stamped up to half a window back,
                    // and in some rounds a clock set back by two windows halfway
                    millis += random.nextInt(10) == 0 ? -random.nextLong(windowMillis / 2) : random.nextLong(random.nextBoolean() ? 3 : 40);
                    if (round % 4 == 3 && i == 1_500)
                    {
                        millis -= 2 * windowMillis;
                    }
                    if (random.nextInt(3) == 0)
                    {
                        w.bid(millis, i, 1 + random.nextInt(16), 1_000, 0);
                    }
                    else
                    {
                        w.notice(random.nextBoolean(), millis, i, 1 + random.nextInt(16), 1_000);
                    }
                    w.endOfBatch();
                }
            }
            final List<Path> segments = JournalReader.segments(journal);
            assertThat(segments).as("round %d: several segments", round).hasSizeGreaterThan(2);
            final NoticeCensus onePass = new JournalReader(journal).countNotices(segments, false, NoticeCensus.CHUNK_BYTES);
            final NoticeCensus halves = new JournalReader(journal).countNotices(segments, true, NoticeCensus.CHUNK_BYTES);
            for (int shard = 0; shard < shards; shard++)
            {
                assertThat(halves.expected(shard)).as("round %d, shard %d", round, shard).isEqualTo(onePass.expected(shard));
            }
        }
    }

    @Test
    void shouldCountTheSameWhateverTheBufferItReadsTheSegmentsBy() throws Exception
    {
        // bids, notices and campaign definitions (records of several lengths), so that records
        // straddle the ends of small buffers in every way, over segments whose last one is torn
        final java.util.SplittableRandom random = new java.util.SplittableRandom(27);
        final PacingPolicy policy = new PacingPolicy(Units.durationMillis(500), Units.durationMillis(1_000),
            Units.durationMillis(1_000));
        try (JournalWriter w = new JournalWriter(dir, 0, 4, policy, 64 * 1024, JournalWriter.FsyncPolicy.NEVER, 100))
        {
            long millis = T0;
            for (int i = 0; i < 6_000; i++)
            {
                millis += random.nextLong(random.nextBoolean() ? 2 : 20);
                switch (random.nextInt(8))
                {
                    case 0 -> w.define(millis, CampaignDefinitionParser.parseJson("{\"id\":" + (1 + random.nextInt(16)) +
                        ",\"budgetMicros\":1000,\"start\":\"2026-01-01T00:00:00Z\",\"end\":\"2027-01-01T00:00:00Z\"," +
                        "\"pacing\":\"" + (random.nextBoolean() ? "EVEN" : "ASAP") + "\",\"timeZone\":\"" +
                        (random.nextBoolean() ? "UTC" : "America/Argentina/ComodRivadavia") + "\"}"));
                    case 1, 2 -> w.bid(millis, i, 1 + random.nextInt(16), 1_000, 0);
                    case 3 -> w.tick(millis);
                    default -> w.notice(random.nextBoolean(), millis, i, 1 + random.nextInt(16), 1_000);
                }
                w.endOfBatch();
            }
        }
        final List<Path> segments = JournalReader.segments(dir);
        assertThat(segments).hasSizeGreaterThan(3);
        final Path last = segments.get(segments.size() - 1);
        try (RandomAccessFile file = new RandomAccessFile(last.toFile(), "rw"))
        {
            file.setLength(file.length() - 3);
        }

        final NoticeCensus whole = new JournalReader(dir).countNotices(segments, false, NoticeCensus.CHUNK_BYTES);
        for (final int chunk : new int[] {NoticeCensus.RECORD_READ, NoticeCensus.RECORD_READ + 1, 64, 100, 333, 4_096})
        {
            for (final boolean split : new boolean[] {false, true})
            {
                final NoticeCensus census = new JournalReader(dir).countNotices(segments, split, chunk);
                for (int shard = 0; shard < 4; shard++)
                {
                    assertThat(census.expected(shard)).as("by %d bytes, shard %d", chunk, shard).isEqualTo(whole.expected(shard));
                }
            }
        }
        assertThat(whole.expected(0) + whole.expected(1) + whole.expected(2) + whole.expected(3)).isGreaterThan(100);
    }

    @Test
    void shouldRefuseABufferTooSmallForARecordsHeadAndANotice()
    {
        org.assertj.core.api.Assertions.assertThatIllegalArgumentException()
            .isThrownBy(() -> NoticeCensus.count(new JournalHeader(1, FOUR_SECOND_WINDOW), List.of(), false, NoticeCensus.RECORD_READ - 1))
            .withMessageContaining(NoticeCensus.RECORD_READ + " bytes or more, not " + (NoticeCensus.RECORD_READ - 1));
    }

    @Test
    void shouldCountTheLaterHalfAgainWhenItStartsMoreThanAWindowBeforeTheFirstEnded() throws Exception
    {
        // two segments of 1,000 notices each, so the halves split between them: the second starts
        // with one notice stamped 10 s (2.5 windows) back, then 999 half a second after the first
        // segment's; one pass counts the first at the latest time seen, 2,000 in one window
        final long end = T0 + 60_000;
        try (JournalWriter w = new JournalWriter(dir, 0, 1, FOUR_SECOND_WINDOW, 1 << 20, JournalWriter.FsyncPolicy.NEVER, 100))
        {
            for (int i = 0; i < 1_000; i++)
            {
                w.notice(false, end, i, 2, 1_000);
            }
            w.endOfBatch();
        }
        try (JournalWriter w = new JournalWriter(dir, 1_000, 1, FOUR_SECOND_WINDOW, 1 << 20, JournalWriter.FsyncPolicy.NEVER, 100))
        {
            for (int i = 1_000; i < 2_000; i++)
            {
                w.notice(false, i == 1_000 ? end - 10_000 : end + 500, i, 2, 1_000);
            }
            w.endOfBatch();
        }
        final List<Path> segments = JournalReader.segments(dir);
        assertThat(segments).hasSize(2);

        assertThat(new JournalReader(dir).countNotices(segments, false, NoticeCensus.CHUNK_BYTES).expected(0)).isEqualTo(2_000);
        assertThat(new JournalReader(dir).countNotices(segments, true, NoticeCensus.CHUNK_BYTES).expected(0)).isEqualTo(2_000);
    }

    @Test
    void shouldStopQuietlyAtARecordItCannotReadAndKeepWhatItCounted() throws Exception
    {
        final long cut;
        try (JournalWriter w = new JournalWriter(dir, 0, 1, FOUR_SECOND_WINDOW, 1 << 20, JournalWriter.FsyncPolicy.NEVER, 100))
        {
            for (int i = 0; i < 20; i++)
            {
                w.notice(false, T0 + i, i, 2, 1_000);
            }
            w.endOfBatch();
            cut = Files.size(JournalReader.segments(dir).get(0));
            for (int i = 20; i < 40; i++)
            {
                w.notice(false, T0 + i, i, 2, 1_000);
            }
            w.endOfBatch();
        }
        // the 21st record's length: impossible
        try (RandomAccessFile file = new RandomAccessFile(JournalReader.segments(dir).get(0).toFile(), "rw"))
        {
            file.seek(cut);
            file.writeInt(-7);
        }

        final NoticeCensus census = new JournalReader(dir).countNotices(JournalReader.segments(dir));

        assertThat(census.expected(0)).isEqualTo(20);
    }

    @Test
    void shouldCountOnlyForAReaderAskedTo() throws Exception
    {
        try (JournalWriter w = new JournalWriter(dir, 0, 1, FOUR_SECOND_WINDOW, 1 << 20, JournalWriter.FsyncPolicy.NEVER, 100))
        {
            w.notice(true, T0, 1, 2, 1_000);
            w.endOfBatch();
        }
        final JournalReader plain = new JournalReader(dir);
        plain.read((record, header) -> { }, false);
        final JournalReader counting = new JournalReader(dir).countingNotices();
        counting.read((record, header) -> { }, false);

        assertThat(plain.census()).isNull();
        assertThat(counting.census()).isNotNull();
    }

    @Test
    void shouldHaveCountedTheWholeJournalBeforeTheFirstRecordIsHandedOver() throws Exception
    {
        // 30 notices in one window, over segments small enough that there are several
        try (JournalWriter w = new JournalWriter(dir, 0, 1, FOUR_SECOND_WINDOW, 1024, JournalWriter.FsyncPolicy.NEVER, 100))
        {
            for (int i = 0; i < 30; i++)
            {
                w.notice(i % 3 == 0, T0 + i, i, 2, 1_000);
                w.endOfBatch();
            }
        }
        assertThat(JournalReader.segments(dir)).hasSizeGreaterThan(1);
        final JournalReader reader = new JournalReader(dir).countingNotices();
        final List<Integer> seenAtFirst = new java.util.ArrayList<>();
        reader.read((record, header) ->
        {
            if (seenAtFirst.isEmpty())
            {
                seenAtFirst.add(reader.census().expected(0));
            }
        }, false);

        assertThat(seenAtFirst).containsExactly(30);
    }

    @Test
    void shouldLeaveOutTheSegmentsThatStartAfterTheInstantAReplayStopsAt() throws Exception
    {
        // 30 notices in the first second, then 300 in one millisecond ten seconds on, over small segments
        try (JournalWriter w = new JournalWriter(dir, 0, 1, FOUR_SECOND_WINDOW, 1024, JournalWriter.FsyncPolicy.NEVER, 100))
        {
            for (int i = 0; i < 330; i++)
            {
                w.notice(i % 3 == 0, i < 30 ? T0 + i : T0 + 10_000, i, 2, 1_000);
                w.endOfBatch();
            }
        }
        assertThat(JournalReader.segments(dir)).hasSizeGreaterThan(4);

        final JournalReader whole = new JournalReader(dir).countingNotices();
        whole.read((record, header) -> { }, false);
        final JournalReader early = new JournalReader(dir).countingNotices(Units.epochMillis(T0 + 100));
        early.read((record, header) -> { }, false);
        final JournalReader before = new JournalReader(dir).countingNotices(Units.epochMillis(T0 - 1));
        before.read((record, header) -> { }, false);

        assertThat(whole.census().expected(0)).isEqualTo(300);
        // the first 30, and at most the later notices that share the segment the 30th ends in
        assertThat(early.census().expected(0)).isBetween(30, 299);
        assertThat(before.census()).as("no segment starts by then").isNull();
        // and a replay up to the instant counts that way
        final JournalReader replayed = new JournalReader(dir);
        JournalReplay.ofJournal(replayed, JournalReplay.Observer.NONE, Units.epochMillis(T0 + 100));
        assertThat(replayed.census().expected(0)).isEqualTo(early.census().expected(0));
    }

    @Test
    void shouldCountNothingWhenTheJournalRemembersNoNotice() throws Exception
    {
        final PacingPolicy noWindow = new PacingPolicy(Units.durationMillis(30_000), Units.durationMillis(1_000),
            Units.durationMillis(0));
        try (JournalWriter w = new JournalWriter(dir, 0, 1, noWindow, 1 << 20, JournalWriter.FsyncPolicy.NEVER, 100))
        {
            w.notice(true, T0, 1, 2, 1_000);
            w.endOfBatch();
        }
        final NoticeCensus census = new JournalReader(dir).countNotices(JournalReader.segments(dir));

        assertThat(census.expected(0)).isZero();
    }
}
