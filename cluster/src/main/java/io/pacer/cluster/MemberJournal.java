package io.pacer.cluster;

import io.pacer.model.CampaignDefinition;
import io.pacer.model.PacingPolicy;
import io.pacer.pipeline.GatewayIds;
import io.pacer.pipeline.journal.JournalReader;
import io.pacer.pipeline.journal.JournalWriter;
import io.pacer.units.Units;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * A member's audit journal: every input its service applied from the committed log, with the
 * decision it made, in the pacer's own journal format, so that {@code bin/pacer replay} audits a
 * member (every report, {@code --explain}, {@code --what-if}, {@code --export}) as it audits a
 * single node. It is a projection of the cluster's log, not a second source of truth: the log and
 * its snapshots are what a member recovers from.
 * <p>
 * Records are numbered by the state ({@link PacerState#records()}), identically on every member
 * and on every re-application of the log after a restart; what the journal already holds is
 * skipped. Written once per log message, forced in the background every 100 ms. A write failure,
 * a journal that cannot be read at start, or one that would have a gap (a snapshot restored past
 * its end) is logged and stops the journal; it never stops the service (the log still holds
 * everything).
 */
public final class MemberJournal implements Recorder, AutoCloseable
{
    private static final Logger LOG = LoggerFactory.getLogger(MemberJournal.class);

    private final Path dir;
    private final JournalWriter writer;
    private boolean failed;

    public MemberJournal(final Path dir, final int shards, final PacingPolicy policy, final long segmentBytes)
    {
        this.dir = dir;
        try
        {
            Files.createDirectories(dir);
        }
        catch (final IOException ex)
        {
            throw new UncheckedIOException("cannot create the member journal directory " + dir, ex);
        }
        this.writer = new JournalWriter(dir, 0, shards, policy, segmentBytes, JournalWriter.FsyncPolicy.PERIODIC,
            Units.durationMillis(100), new GatewayIds());
    }

    /**
     * Finds where the journal on disk ends (cutting a torn tail) and resumes there; the state,
     * just restored, has numbered {@code stateRecords} records. Call before the first record.
     */
    public void open(final long stateRecords)
    {
        try
        {
            final JournalReader reader = new JournalReader(dir);
            reader.read((record, header) -> { }, true, 0);
            final long onDisk = reader.lastSequence() + 1;
            if (stateRecords > onDisk && onDisk > 0)
            {
                // the reader refuses a journal with a gap: stop here rather than write one
                stop("it ends at sequence " + onDisk + " but the snapshot restored covers " + stateRecords +
                    "; move it aside to start a new one (the cluster's log still holds every input)", null);
                return;
            }
            writer.resumeAt(Math.max(onDisk, stateRecords));
        }
        catch (final RuntimeException ex)
        {
            stop("it cannot be read to its end", ex);
        }
    }

    private void stop(final String why, final Throwable cause)
    {
        failed = true;
        LOG.error("MEMBER JOURNAL {} STOPPED: {}. The member goes on deciding from the cluster's log.", dir, why, cause);
    }

    private boolean skip(final long sequence)
    {
        return failed || sequence < writer.nextSequence();
    }

    @Override
    public void bid(final long sequence, final long epochMillis, final long requestId, final long campaignId,
        final long cpmMicros, final int reason)
    {
        if (!skip(sequence))
        {
            try
            {
                writer.bid(Units.epochMillis(epochMillis), requestId, campaignId, Units.cpmMicros(cpmMicros), reason);
            }
            catch (final RuntimeException ex)
            {
                stop("a write failed", ex);
            }
        }
    }

    @Override
    public void notice(final long sequence, final boolean win, final long epochMillis, final long requestId,
        final long campaignId, final long cpmMicros)
    {
        if (!skip(sequence))
        {
            try
            {
                writer.notice(win, Units.epochMillis(epochMillis), requestId, campaignId, Units.cpmMicros(cpmMicros));
            }
            catch (final RuntimeException ex)
            {
                stop("a write failed", ex);
            }
        }
    }

    @Override
    public void define(final long sequence, final long epochMillis, final CampaignDefinition definition)
    {
        if (!skip(sequence))
        {
            try
            {
                writer.define(Units.epochMillis(epochMillis), definition);
            }
            catch (final RuntimeException ex)
            {
                stop("a write failed", ex);
            }
        }
    }

    @Override
    public void tick(final long sequence, final long epochMillis)
    {
        if (!skip(sequence))
        {
            try
            {
                writer.tick(Units.epochMillis(epochMillis));
            }
            catch (final RuntimeException ex)
            {
                stop("a write failed", ex);
            }
        }
    }

    @Override
    public void endOfBatch()
    {
        if (failed)
        {
            return;
        }
        try
        {
            writer.endOfBatch();
        }
        catch (final RuntimeException ex)
        {
            stop("a write failed", ex);
        }
    }

    /** Whether a write failed and the journal stopped. */
    public boolean failed()
    {
        return failed;
    }

    @Override
    public void close()
    {
        try
        {
            writer.close();
        }
        catch (final RuntimeException ex)
        {
            LOG.error("member journal {} could not be flushed and closed", dir, ex);
        }
    }
}
