package io.pacer.server;

import io.netty.util.ResourceLeakDetector;
import io.pacer.monitoring.PacerMetrics;
import io.pacer.pipeline.GatewayIds;
import io.pacer.pipeline.PacerPipeline;
import io.pacer.pipeline.Replier;
import io.pacer.server.admin.AdminHandler;
import io.pacer.server.admin.AdminServer;
import io.pacer.server.admin.BearerTokenCheck;
import io.pacer.server.admin.HealthState;
import io.pacer.server.admin.MetricsEndpoint;
import io.pacer.server.admin.PrometheusEndpoint;
import io.pacer.server.config.AdminConfig;
import io.pacer.server.config.InvalidConfigException;
import io.pacer.server.config.PacerConfig;
import io.pacer.server.gateway.GatewayServer;
import io.pacer.server.gateway.GatewayStats;
import io.pacer.server.gateway.PermissionCounters;
import io.pacer.server.net.ReloadingTls;
import org.agrona.concurrent.EpochClock;
import org.agrona.concurrent.SystemEpochClock;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.net.InetSocketAddress;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

/**
 * The running pacer: pipeline, campaigns-file watcher, admin listener and gateway listener,
 * started in that order (the gateway opens last, once state is loaded) and stopped in reverse
 * (the gateway stops reading first, the ring drains, answers go out, then connections close).
 *
 * <p>What it starts lives elsewhere: the journal, recovery and snapshots in {@link ServerJournal}
 * (one that is off when the journal is), the metrics catalogue in {@link ServerMetrics}.
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
    private final ServerJournal journal;
    /** Cluster mode's member and client, or null for a single node. */
    private final ServerCluster cluster;
    private InetSocketAddress gatewayAddress;
    private InetSocketAddress adminAddress;
    private boolean closed;
    /** Set at start when the listener has TLS; read by metrics (a scrape before start sees none). */
    private volatile ReloadingTls gatewayTls;
    private volatile ReloadingTls adminTls;

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
        // the gateway identities: numbered by the listener, named in each journal segment
        final GatewayIds identities = new GatewayIds();
        this.cluster = config.cluster().enabled() ? new ServerCluster(config) : null;
        this.journal = ServerJournal.create(config, identities);
        final Path appliedCampaignsFile = cluster == null ? journal.appliedCampaignsFile() : cluster.appliedCampaignsFile();
        // a first start's campaigns file is read while the rest starts
        final CampaignsFilePreload preload = config.campaigns().watched() ?
            CampaignsFilePreload.start(config.campaigns().file(), appliedCampaignsFile) : null;
        this.metrics = config.metricsEnabled() ? new PacerMetrics(version()) : null;
        this.gateway = new GatewayServer(config.gateway().ioThreads(), config.gateway().permissions(), identities);
        final Replier.DecisionListener decisions = metrics == null ? Replier.DecisionListener.NONE : metrics.decisions();
        this.pipeline = cluster == null ?
            new PacerPipeline(config.pipeline(), clock, decisions, journal.journaler(), gateway.drainLoop()) :
            new PacerPipeline(config.pipeline(), clock, cluster.consumer(decisions));
        if (cluster != null)
        {
            health.cluster(cluster::connected, cluster::role);
        }
        this.auth = adminAuth(config.admin());
        this.adminHandler = new AdminHandler(pipeline, auth, health,
            metrics == null ? MetricsEndpoint.NOT_AVAILABLE : new PrometheusEndpoint(metrics));
        this.watcher = !config.campaigns().watched() ? null :
            new CampaignsFileWatcher(config.campaigns().file(), config.campaigns().pollInterval(), pipeline,
                appliedCampaignsFile, preload);
        if (metrics != null)
        {
            ServerMetrics.register(metrics, pipeline, gateway, admin, adminHandler, auth, journal, watcher);
            if (cluster != null)
            {
                cluster.register(metrics);
            }
            for (final String listener : new String[] {"gateway", "admin"})
            {
                metrics.counter("pacer.tls.reloads", "TLS contexts rebuilt after their files changed, by listener", null,
                    () -> tlsOf(listener) == null ? 0 : tlsOf(listener).reloads(), "listener", listener);
                metrics.counter("pacer.tls.reload.failures",
                    "TLS file changes refused (no usable context; the previous one stayed), by listener", null,
                    () -> tlsOf(listener) == null ? 0 : tlsOf(listener).failures(), "listener", listener);
            }
        }
    }

    private ReloadingTls tlsOf(final String listener)
    {
        return "gateway".equals(listener) ? gatewayTls : adminTls;
    }

    private static BearerTokenCheck adminAuth(final AdminConfig admin)
    {
        try
        {
            return new BearerTokenCheck(admin.token(), admin.tokenFile());
        }
        catch (final IllegalArgumentException ex)
        {
            throw new InvalidConfigException(AdminConfig.TOKENS_FILE, ex.getMessage());
        }
    }

    private static String version()
    {
        final String version = PacerServer.class.getPackage().getImplementationVersion();
        return version == null ? "development" : version;
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
        adminTls = ServerTls.reloading(adminConfig.tls());
        adminAddress = admin.bind(adminConfig, adminHandler, adminTls);
        journal.recover(pipeline, config);
        if (cluster != null)
        {
            cluster.launch();
        }
        pipeline.start();
        if (watcher != null)
        {
            watcher.loadInitial();
            watcher.start();
        }
        journal.startSnapshots(pipeline);
        gatewayTls = ServerTls.reloading(config.gateway().tls());
        gatewayAddress = gateway.bind(config.gateway(), pipeline, gatewayTls);
        health.up();
        return this;
    }

    /**
     * Takes a snapshot now, through the ring, and writes it beside the journal (then applies
     * retention); returns the file. Waits up to 60 s.
     *
     * @throws IllegalStateException without the journal ({@code pacer.journal.enabled})
     */
    public Path snapshotNow()
    {
        return journal.snapshotNow(pipeline);
    }

    /** The journal sequence recovery started replaying from (0: no snapshot). */
    public long recoveredFromSequence()
    {
        return journal.recovery().fromSequence();
    }

    /** Journal events replayed at start-up. */
    public long replayedEvents()
    {
        return journal.recovery().replayedEvents();
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

    /**
     * Notices held for room in the ring were accepted: let them in before the ring drains, with the
     * frames received behind them (a notice counts as held until those are published too).
     */
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

    /** Gateway messages refused by {@code pacer.gateways}, per identity. */
    public PermissionCounters gatewayPermissionCounters()
    {
        return gateway.permissionCounters();
    }

    public CampaignsFileWatcher watcher()
    {
        return watcher;
    }

    public BearerTokenCheck auth()
    {
        return auth;
    }

    /** Cluster mode's member, or null for a single node (tests stop it hard through this). */
    public io.pacer.cluster.ClusterNode clusterNode()
    {
        return cluster == null ? null : cluster.node();
    }

    /** Cluster mode's client of this node, or null for a single node. */
    public io.pacer.cluster.ClusterIngress clusterIngress()
    {
        return cluster == null ? null : cluster.ingress();
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
        journal.close();
        gateway.stopIntake();
        awaitHeldNotices();
        if (watcher != null)
        {
            watcher.close();
        }
        admin.close();
        pipeline.close();
        gateway.close();
        if (cluster != null)
        {
            cluster.close();
        }
        if (metrics != null)
        {
            metrics.close();
        }
        LOG.info("pacer stopped");
    }
}
