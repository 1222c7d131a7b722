package io.pacer.pipeline.journal;

import io.pacer.model.PacingPolicy;
import io.pacer.model.PacingShard;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/**
 * Rebuilds every shard's state at start, before any consumer runs: the newest valid snapshot,
 * then the journal records after it, through {@link JournalReplay} (the same dispatch as live
 * handling). Leaves the writer positioned after the last record.
 */
public final class JournalRecovery
{
    private static final Logger LOG = LoggerFactory.getLogger(JournalRecovery.class);

    /** The journal was written with another pipeline shape: start with the same one, or a new journal. */
    public static final class ShapeMismatchException extends IllegalStateException
    {
        private static final long serialVersionUID = 1L;

        ShapeMismatchException(final String message)
        {
            super(message);
        }
    }

    /**
     * What recovery did.
     *
     * @param fromSequence   the journal sequence replay started at (0: no snapshot)
     * @param replayedEvents records replayed after the snapshot
     */
    public record Result(long fromSequence, long replayedEvents)
    {
    }

    private JournalRecovery()
    {
    }

    /**
     * @param truncateCorrupt cut the journal at a corrupt record instead of refusing to start
     * @throws ShapeMismatchException if the journal was written with other shards or pacing tunables
     * @throws JournalCorruptException on a corrupt record, unless {@code truncateCorrupt}
     */
    public static Result recover(
        final Path dir, final List<PacingShard> shards, final PacingPolicy policy, final JournalWriter writer,
        final boolean truncateCorrupt)
    {
        try
        {
            Files.createDirectories(dir);
        }
        catch (final IOException ex)
        {
            throw new UncheckedIOException("cannot create journal directory " + dir, ex);
        }
        final long started = System.nanoTime();
        SnapshotStore.deleteUnfinished(dir);
        final SnapshotStore.Loaded snapshot = SnapshotStore.newestValid(dir, shards.size(), policy);
        final long from = snapshot == null ? 0 : snapshot.coveredSequence();
        if (snapshot != null)
        {
            SnapshotStore.restore(snapshot, shards);
            LOG.info("journal {}: restored snapshot {} (covers sequences below {})", dir, snapshot.file(), from);
        }
        final JournalReader reader = new JournalReader(dir).countingNotices();
        final JournalReplay replay = new JournalReplay(shards, JournalReplay.Observer.NONE).sizedBy(reader);
        final JournalReader.RecordHandler checked = (record, header) ->
        {
            if (header.shards() != shards.size() || !continues(header.policy(), policy))
            {
                throw new ShapeMismatchException("the journal in " + dir + " was written with " + header.shards() +
                    " shard(s) and " + header.policy() + "; start with the same values, or with a new journal directory");
            }
            replay.onRecord(record, header);
        };
        try
        {
            reader.read(checked, true, from);
        }
        catch (final JournalCorruptException ex)
        {
            if (!truncateCorrupt)
            {
                throw ex;
            }
            LOG.error("JOURNAL CORRUPT: {}; pacer.journal.truncate-corrupt is set, cutting the journal there", ex.getMessage());
            JournalRepair.truncateAt(dir, ex.file(), ex.offset());
        }
        // the bids and notices read before the end (or the corrupt record) are all valid
        replay.finish();
        replay.endSizing();
        writer.resumeAt(Math.max(reader.lastSequence() + 1, from));
        LOG.info("journal {}: replayed {} events after the snapshot in {} ms{}", dir, replay.events(),
            (System.nanoTime() - started) / 1_000_000,
            reader.tornTailOffset() >= 0 ? " (torn tail truncated at " + reader.tornTailFile() + ":" + reader.tornTailOffset() + ")" : "");
        return new Result(from, replay.events());
    }

    /**
     * Whether a journal written under {@code written} may go on under {@code configured}: the same
     * policy, or a version-1 journal (no dedupe window) with the same TTL and replan interval, which
     * is upgraded in place: its records are replayed with the window, and the window holds from then.
     */
    static boolean continues(final PacingPolicy written, final PacingPolicy configured)
    {
        return written.equals(configured) || (written.noticeDedupeWindowMillis() == 0 &&
            written.reservationTtlMillis() == configured.reservationTtlMillis() &&
            written.replanIntervalMillis() == configured.replanIntervalMillis());
    }
}
