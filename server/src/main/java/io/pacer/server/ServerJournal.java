package io.pacer.server;

import io.pacer.monitoring.PacerMetrics;
import io.pacer.pipeline.GatewayIds;
import io.pacer.pipeline.PacerPipeline;
import io.pacer.pipeline.PacerThreads;
import io.pacer.pipeline.SnapshotCommand;
import io.pacer.pipeline.journal.JournalRecovery;
import io.pacer.pipeline.journal.JournalWriter;
import io.pacer.pipeline.journal.Journaler;
import io.pacer.pipeline.journal.SnapshotStore;
import io.pacer.pipeline.journal.WritingJournaler;
import io.pacer.server.config.InvalidConfigException;
import io.pacer.server.config.JournalConfig;
import io.pacer.server.config.PacerConfig;
import io.pacer.units.Units;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.nio.file.Path;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

/**
 * The server's journal, when {@code pacer.journal.enabled}: the writer the pipeline journals
 * through, recovery before the pipeline starts, and the snapshot schedule with its retention.
 * When the journal is off, {@link #create} gives one that journals nothing, recovers nothing and
 * refuses snapshots, so the server never asks which it has.
 */
class ServerJournal implements AutoCloseable
{
    private static final Logger LOG = LoggerFactory.getLogger(ServerJournal.class);

    /** The one with no journal. */
    private static final class Off extends ServerJournal
    {
        @Override
        void recover(final PacerPipeline pipeline, final PacerConfig config)
        {
        }

        @Override
        void startSnapshots(final PacerPipeline pipeline)
        {
        }

        @Override
        Path snapshotNow(final PacerPipeline pipeline)
        {
            throw new IllegalStateException("snapshots need the journal (pacer.journal.enabled)");
        }

        @Override
        void register(final PacerMetrics metrics, final PacerPipeline pipeline)
        {
        }

        @Override
        Path appliedCampaignsFile()
        {
            return null;
        }

        @Override
        public void close()
        {
        }
    }

    private final JournalConfig config;
    private final JournalWriter writer;
    private final Journaler journaler;
    private JournalRecovery.Result recovery = new JournalRecovery.Result(0, 0);
    private ScheduledExecutorService snapshots;

    private ServerJournal()
    {
        this.config = null;
        this.writer = null;
        this.journaler = Journaler.NONE;
    }

    private ServerJournal(final PacerConfig config, final GatewayIds identities)
    {
        this.config = config.journal();
        this.writer = new JournalWriter(this.config.dir(), 0, config.pipeline().shards(), config.pipeline().policy(),
            this.config.segmentBytes(), this.config.fsync(), Units.durationMillis(this.config.fsyncInterval().toMillis()),
            identities);
        this.journaler = new WritingJournaler(writer);
    }

    /**
     * The journal {@code config} asks for: a real one, or one that is off.
     *
     * @param identities the gateway identities, named in each segment
     */
    static ServerJournal create(final PacerConfig config, final GatewayIds identities)
    {
        // in cluster mode the cluster's log is the journal, and its snapshots are the cluster's
        return config.journal().enabled() && !config.cluster().enabled() ? new ServerJournal(config, identities) : new Off();
    }

    /** What the pipeline journals each batch through. */
    Journaler journaler()
    {
        return journaler;
    }

    /** Rebuilds every shard's state from the journal, before the pipeline starts. */
    void recover(final PacerPipeline pipeline, final PacerConfig server)
    {
        try
        {
            recovery = JournalRecovery.recover(config.dir(), pipeline.shardStates(), server.pipeline().policy(), writer,
                config.truncateCorrupt());
        }
        catch (final JournalRecovery.ShapeMismatchException ex)
        {
            throw new InvalidConfigException("pacer.pipeline.shards / pacer.pacing", ex.getMessage());
        }
    }

    /** Starts taking snapshots every {@code pacer.journal.snapshot-interval}, if snapshots are on. */
    void startSnapshots(final PacerPipeline pipeline)
    {
        if (!config.snapshots())
        {
            return;
        }
        snapshots = Executors.newSingleThreadScheduledExecutor(PacerThreads.factory("pacer-snapshots"));
        final long every = config.snapshotInterval().toMillis();
        snapshots.scheduleWithFixedDelay(() ->
        {
            try
            {
                snapshotNow(pipeline);
            }
            catch (final RuntimeException ex)
            {
                LOG.error("snapshot failed", ex);
            }
        }, every, every, TimeUnit.MILLISECONDS);
    }

    /**
     * Takes a snapshot now, through the ring, and writes it beside the journal (then applies
     * retention); returns the file. Waits up to 60 s.
     */
    Path snapshotNow(final PacerPipeline pipeline)
    {
        final SnapshotCommand taken;
        try
        {
            taken = pipeline.requestSnapshot().get(60, TimeUnit.SECONDS);
        }
        catch (final Exception ex)
        {
            throw new IllegalStateException("snapshot not taken", ex);
        }
        final Path file = SnapshotStore.write(config.dir(), taken);
        LOG.info("snapshot {} written (covers journal sequences below {})", file, taken.coveredSequence());
        SnapshotStore.pruneSnapshots(config.dir());
        if (!config.retainCovered())
        {
            SnapshotStore.retire(config.dir(), taken.coveredSequence());
        }
        return file;
    }

    /** The journal's meters. */
    void register(final PacerMetrics metrics, final PacerPipeline pipeline)
    {
        metrics.counter("pacer.journal.written", "Bytes written to the journal", "bytes", writer::bytesWritten);
        metrics.counter("pacer.journal.fsyncs", "Journal fsyncs", null, writer::fsyncs);
        metrics.gauge("pacer.journal.failed",
            "1 once a journal write or fsync failed: the pacer answers no BIDs until restarted",
            null, () -> pipeline.journalFailed() ? 1 : 0);
    }

    /**
     * Where the campaigns-file watcher records the file it last applied, so that a restart diffs
     * against it; null without a journal (the whole file is applied again).
     */
    Path appliedCampaignsFile()
    {
        return CampaignsFileWatcher.appliedCopyIn(config.dir());
    }

    JournalRecovery.Result recovery()
    {
        return recovery;
    }

    /** Stops the snapshot schedule; the pipeline closes the writer, after its last batch. */
    @Override
    public void close()
    {
        if (snapshots != null)
        {
            snapshots.shutdownNow();
        }
    }
}
