package io.pacer.server;

import io.netty.util.ResourceLeakDetector;
import io.pacer.model.PacingShard;
import io.pacer.monitoring.PacerMetrics;
import io.pacer.pipeline.PacerPipeline;
import io.pacer.pipeline.PacerThreads;
import io.pacer.pipeline.Replier;
import io.pacer.pipeline.SnapshotCommand;
import io.pacer.pipeline.journal.JournalRecovery;
import io.pacer.pipeline.journal.JournalWriter;
import io.pacer.pipeline.journal.Journaler;
import io.pacer.pipeline.journal.SnapshotStore;
import io.pacer.pipeline.journal.WritingJournaler;
import io.pacer.server.admin.AdminHandler;
import io.pacer.server.admin.AdminServer;
import io.pacer.server.admin.BearerTokenCheck;
import io.pacer.server.admin.HealthState;
import io.pacer.server.admin.MetricsEndpoint;
import io.pacer.server.admin.PrometheusEndpoint;
import io.pacer.server.config.AdminConfig;
import io.pacer.server.config.InvalidConfigException;
import io.pacer.server.config.JournalConfig;
import io.pacer.server.config.PacerConfig;
import io.pacer.server.gateway.ConnectionEvent;
import io.pacer.server.gateway.GatewayServer;
import io.pacer.server.gateway.GatewayStats;
import io.pacer.units.Units;
import io.pacer.wire.ErrorCode;
import org.agrona.concurrent.EpochClock;
import org.agrona.concurrent.SystemEpochClock;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.net.InetSocketAddress;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

/**
 * The running pacer: pipeline, campaigns-file watcher, admin listener and gateway listener,
 * started in that order (the gateway opens last, once state is loaded) and stopped in reverse
 * (the gateway stops reading first, the ring drains, answers go out, then connections close).
 *
 * <p>Over 300 lines, still to split (issue #13): the metrics catalogue and the parts that can be off
 * (journal, snapshots, watcher, metrics, today null when off) are to become their own classes.
 */
public final class PacerServer implements AutoCloseable
{
    private static final Logger LOG = LoggerFactory.getLogger(PacerServer.class);

    private final PacerConfig config;
    private final PacerPipeline pipeline;
    private final GatewayServer gateway;
    private final AdminServer admin = new AdminServer();
    private final AdminHandler adminHandler;
    private final HealthState health = new HealthState();
    private final BearerTokenCheck auth;
    private final CampaignsFileWatcher watcher;
    private final PacerMetrics metrics;
    private final JournalWriter journal;
    private InetSocketAddress gatewayAddress;
    private InetSocketAddress adminAddress;
    private boolean closed;
    private JournalRecovery.Result recovery = new JournalRecovery.Result(0, 0);
    private ScheduledExecutorService snapshots;

    public PacerServer(final PacerConfig config)
    {
        this(config, SystemEpochClock.INSTANCE);
    }

    /** With another clock for ingress timestamps (tests). */
    public PacerServer(final PacerConfig config, final EpochClock clock)
    {
        if (System.getProperty("io.netty.leakDetection.level") == null)
        {
            // sampling leak detection records stack traces on the hot path; ask for it explicitly
            ResourceLeakDetector.setLevel(ResourceLeakDetector.Level.DISABLED);
        }
        this.config = config;
        this.metrics = config.metricsEnabled() ? new PacerMetrics(version()) : null;
        final JournalConfig journalConfig = config.journal();
        this.journal = journalConfig.enabled() ? new JournalWriter(journalConfig.dir(), 0,
            config.pipeline().shards(), config.pipeline().policy(), journalConfig.segmentBytes(), journalConfig.fsync(),
            Units.durationMillis(journalConfig.fsyncInterval().toMillis())) : null;
        this.gateway = new GatewayServer(config.gateway().ioThreads());
        this.pipeline = new PacerPipeline(config.pipeline(), clock,
            metrics == null ? Replier.DecisionListener.NONE : metrics.decisions(),
            journal == null ? Journaler.NONE : new WritingJournaler(journal), gateway.drainLoop());
        this.auth = new BearerTokenCheck(config.admin().token());
        this.adminHandler = new AdminHandler(pipeline, auth, health,
            metrics == null ? MetricsEndpoint.NOT_AVAILABLE : new PrometheusEndpoint(metrics));
        this.watcher = !config.campaigns().watched() ? null :
            new CampaignsFileWatcher(config.campaigns().file(), config.campaigns().pollInterval(), pipeline,
                journal == null ? null : journalConfig.dir().resolve("campaigns-file.applied.json"));
        if (metrics != null)
        {
            registerMetrics(metrics);
        }
    }

    private static String version()
    {
        final String version = PacerServer.class.getPackage().getImplementationVersion();
        return version == null ? "development" : version;
    }

    private void registerMetrics(final PacerMetrics m)
    {
        final GatewayStats stats = gateway.stats();
        m.bindPipeline(pipeline, () -> stats.total(GatewayStats.SHED));
        m.counter("pacer.requests", "Messages received from gateways, by type", null,
            () -> stats.total(GatewayStats.BID_REQUESTS), "type", "bid_request");
        m.counter("pacer.requests", "Messages received from gateways, by type", null,
            () -> stats.total(GatewayStats.WIN_NOTICES), "type", "win_notice");
        m.counter("pacer.requests", "Messages received from gateways, by type", null,
            () -> stats.total(GatewayStats.LOSS_NOTICES), "type", "loss_notice");
        for (final ErrorCode code : ErrorCode.values())
        {
            if (code != ErrorCode.NULL_VAL)
            {
                m.counter("pacer.protocol.errors", "Protocol errors answered with an Error message, by code", null,
                    () -> stats.protocolErrors(code), "code", code.name().toLowerCase(Locale.ROOT));
            }
        }
        m.gauge("pacer.connections.open", "Gateway connections open now", null, stats::openConnections);
        for (final ConnectionEvent event : ConnectionEvent.values())
        {
            m.counter(event.metricName(), event.help(), null, () -> stats.total(event));
        }
        m.gauge("pacer.gateway.unwritten", "Answer bytes not yet written to gateways", "bytes", gateway::unwrittenBytes);
        m.counter("pacer.gateway.received", "Bytes received from gateways", "bytes", () -> stats.total(GatewayStats.BYTES_IN));
        m.counter("pacer.gateway.sent", "Bytes sent to gateways", "bytes", () -> stats.total(GatewayStats.BYTES_OUT));
        m.counter("pacer.admin.ring.waits", "Admin commands that found the ring full and were retried", null,
            adminHandler::ringWaits);
        m.counter("pacer.admin.auth.rejections", "Admin requests refused for a missing or wrong bearer token", null,
            auth::rejections);
        if (journal != null)
        {
            final JournalWriter writer = journal;
            m.counter("pacer.journal.written", "Bytes written to the journal", "bytes", writer::bytesWritten);
            m.counter("pacer.journal.fsyncs", "Journal fsyncs", null, writer::fsyncs);
            m.gauge("pacer.journal.failed", "1 once a journal write or fsync failed: the pacer answers no BIDs until restarted",
                null, () -> pipeline.journalFailed() ? 1 : 0);
        }
        if (watcher != null)
        {
            m.counter("pacer.campaigns.file.reloads", "Campaigns-file loads, by result", null, watcher::reloads,
                "result", "ok");
            m.counter("pacer.campaigns.file.reloads", "Campaigns-file loads, by result", null, watcher::rejections,
                "result", "rejected");
        }
    }

    /**
     * Starts everything; returns once the gateway accepts connections and /health is UP. The
     * admin listener opens first and answers /health 503 while the journal is replayed.
     */
    public PacerServer start() throws InterruptedException
    {
        try
        {
            return startAll();
        }
        catch (final RuntimeException | InterruptedException ex)
        {
            // nothing started may outlive a failed start (ticks, journal, listeners)
            close();
            throw ex;
        }
    }

    private PacerServer startAll() throws InterruptedException
    {
        final AdminConfig adminConfig = config.admin();
        adminAddress = admin.bind(adminConfig.host(), adminConfig.port(), adminHandler, adminConfig.maxBodyBytes(),
            ServerTls.context(adminConfig.tls()));
        if (journal != null)
        {
            recover();
        }
        pipeline.start();
        if (watcher != null)
        {
            watcher.loadInitial();
            watcher.start();
        }
        if (journal != null && config.journal().snapshots())
        {
            snapshots = Executors.newSingleThreadScheduledExecutor(PacerThreads.factory("pacer-snapshots"));
            final long every = config.journal().snapshotInterval().toMillis();
            snapshots.scheduleWithFixedDelay(() ->
            {
                try
                {
                    snapshotNow();
                }
                catch (final RuntimeException ex)
                {
                    LOG.error("snapshot failed", ex);
                }
            }, every, every, TimeUnit.MILLISECONDS);
        }
        gatewayAddress = gateway.bind(config.gateway(), pipeline, ServerTls.context(config.gateway().tls()));
        health.up();
        return this;
    }

    /** Rebuilds every shard's state from the journal, before any consumer runs. */
    private void recover()
    {
        final List<PacingShard> shards = pipeline.shardStates();
        try
        {
            recovery = JournalRecovery.recover(config.journal().dir(), shards, config.pipeline().policy(), journal,
                config.journal().truncateCorrupt());
        }
        catch (final JournalRecovery.ShapeMismatchException ex)
        {
            throw new InvalidConfigException("pacer.pipeline.shards / pacer.pacing", ex.getMessage());
        }
    }

    /**
     * Takes a snapshot now, through the ring, and writes it beside the journal (then applies
     * retention); returns the file. Waits up to 60 s.
     */
    public Path snapshotNow()
    {
        if (journal == null)
        {
            throw new IllegalStateException("snapshots need the journal (pacer.journal.enabled)");
        }
        final SnapshotCommand taken;
        try
        {
            taken = pipeline.requestSnapshot().get(60, TimeUnit.SECONDS);
        }
        catch (final Exception ex)
        {
            throw new IllegalStateException("snapshot not taken", ex);
        }
        final Path dir = config.journal().dir();
        final Path file = SnapshotStore.write(dir, taken);
        LOG.info("snapshot {} written (covers journal sequences below {})", file, taken.coveredSequence());
        SnapshotStore.pruneSnapshots(dir);
        if (!config.journal().retainCovered())
        {
            SnapshotStore.retire(dir, taken.coveredSequence());
        }
        return file;
    }

    /** The journal sequence recovery started replaying from (0: no snapshot). */
    public long recoveredFromSequence()
    {
        return recovery.fromSequence();
    }

    /** Journal events replayed at start-up. */
    public long replayedEvents()
    {
        return recovery.replayedEvents();
    }

    public InetSocketAddress gatewayAddress()
    {
        return gatewayAddress;
    }

    public InetSocketAddress adminAddress()
    {
        return adminAddress;
    }

    public PacerPipeline pipeline()
    {
        return pipeline;
    }

    /** Notices held for room in the ring were accepted: let them in before the ring drains. */
    private void awaitHeldNotices()
    {
        final long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(5);
        while (gateway.stats().noticesHeld() > 0 && System.nanoTime() < deadline)
        {
            LockSupport.parkNanos(100_000);
        }
        if (gateway.stats().noticesHeld() > 0)
        {
            LOG.error("{} notice(s) still waiting for room in the ring after 5 s; stopping without them",
                gateway.stats().noticesHeld());
        }
    }

    /** True once a journal write failed: the pacer answers no BIDs until restarted. */
    public boolean journalFailed()
    {
        return pipeline.journalFailed();
    }

    /** Admin commands that found the ring full and were retried. */
    public long adminRingWaits()
    {
        return adminHandler.ringWaits();
    }

    /** Answer bytes queued in Netty for gateways that have not read them yet. */
    public long gatewayUnwrittenBytes()
    {
        return gateway.unwrittenBytes();
    }

    public GatewayStats gatewayStats()
    {
        return gateway.stats();
    }

    public CampaignsFileWatcher watcher()
    {
        return watcher;
    }

    public BearerTokenCheck auth()
    {
        return auth;
    }

    /** Null when {@code pacer.metrics.enabled} is false. */
    public PacerMetrics metrics()
    {
        return metrics;
    }

    /** Stops intake, answers everything already accepted, then closes. Idempotent. */
    @Override
    public synchronized void close()
    {
        if (closed)
        {
            return;
        }
        closed = true;
        LOG.info("pacer stopping");
        health.down();
        if (snapshots != null)
        {
            snapshots.shutdownNow();
        }
        gateway.stopIntake();
        awaitHeldNotices();
        if (watcher != null)
        {
            watcher.close();
        }
        admin.close();
        pipeline.close();
        gateway.close();
        if (metrics != null)
        {
            metrics.close();
        }
        LOG.info("pacer stopped");
    }
}
