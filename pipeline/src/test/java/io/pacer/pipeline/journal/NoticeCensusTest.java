package io.pacer.pipeline.journal;

import io.pacer.model.PacingPolicy;
import io.pacer.units.Units;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The census estimates, per shard, the most notices a dedupe window holds in a journal, across
 * segment boundaries: at least the true most, and at most an eighth of a window's worth more.
 */
class NoticeCensusTest
{
    private static final long T0 = 1_767_225_600_000L; // 2026-01-01T00:00:00Z
    private static final PacingPolicy ONE_SECOND_WINDOW = new PacingPolicy(Units.durationMillis(500),
        Units.durationMillis(1_000), Units.durationMillis(1_000));

    @TempDir
    Path dir;

    @Test
    void shouldCountTheMostNoticesOneWindowHoldsPerShardAcrossSegments() throws Exception
    {
        try (JournalWriter w = new JournalWriter(dir, 0, 2, ONE_SECOND_WINDOW, 16 * 1024, JournalWriter.FsyncPolicy.NEVER, 100))
        {
            long request = 0;
            for (int ms = 0; ms < 5_000; ms += 10)
            {
                // shard 0 (even campaigns): one notice every 10 ms, 100 a window, all along
                w.notice(ms % 20 == 0, T0 + ms, request++, 2, 1_000);
                w.bid(T0 + ms, request++, 3, 1_000, 0);
                w.tick(T0 + ms);
                w.endOfBatch();
            }
            // shard 1 (odd campaigns): a burst of 300 in one millisecond, then 50 more half a second on
            for (int i = 0; i < 300; i++)
            {
                w.notice(false, T0 + 5_000, request++, 3, 1_000);
            }
            for (int i = 0; i < 50; i++)
            {
                w.notice(true, T0 + 5_500, request++, 5, 1_000);
            }
            w.endOfBatch();
        }
        final JournalReader reader = new JournalReader(dir);
        assertThat(JournalReader.segments(dir)).as("several segments").hasSizeGreaterThan(3);

        final NoticeCensus census = reader.countNotices(JournalReader.segments(dir));
        census.awaitCounted();

        assertThat(census.shards()).isEqualTo(2);
        assertThat(census.expected(0)).isBetween(100, 100 + 100 / 8 + 1);
        assertThat(census.expected(1)).isEqualTo(350);
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
        census.awaitCounted();

        assertThat(census.expected(0)).isZero();
    }
}
