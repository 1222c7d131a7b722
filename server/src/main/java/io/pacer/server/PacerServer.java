package io.pacer.server;

import io.pacer.pipeline.PacerPipeline;
import io.pacer.pipeline.Replier;
import io.pacer.server.admin.AdminHandler;
import io.pacer.server.admin.AdminServer;
import io.pacer.server.admin.BearerTokenCheck;
import io.pacer.server.admin.HealthState;
import io.pacer.server.admin.MetricsEndpoint;
import io.pacer.server.gateway.GatewayServer;
import io.pacer.server.gateway.GatewayStats;
import org.agrona.concurrent.EpochClock;
import org.agrona.concurrent.SystemEpochClock;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.net.InetSocketAddress;

/**
 * The running pacer: pipeline, campaigns-file watcher, admin listener and gateway listener,
 * started in that order (the gateway opens last, once state is loaded) and stopped in reverse
 * (the gateway stops reading first, the ring drains, answers go out, then connections close).
 */
public final class PacerServer implements AutoCloseable
{
    private static final Logger LOG = LoggerFactory.getLogger(PacerServer.class);

    private final PacerConfig config;
    private final PacerPipeline pipeline;
    private final GatewayServer gateway;
    private final AdminServer admin = new AdminServer();
    private final HealthState health = new HealthState();
    private final BearerTokenCheck auth;
    private final CampaignsFileWatcher watcher;
    private InetSocketAddress gatewayAddress;
    private InetSocketAddress adminAddress;
    private boolean closed;

    public PacerServer(final PacerConfig config)
    {
        this(config, SystemEpochClock.INSTANCE);
    }

    /** With another clock for ingress timestamps (tests). */
    public PacerServer(final PacerConfig config, final EpochClock clock)
    {
        this.config = config;
        this.pipeline = new PacerPipeline(config.pipeline(), clock, Replier.DecisionListener.NONE);
        this.gateway = new GatewayServer(config.gatewayIoThreads());
        this.auth = new BearerTokenCheck(config.adminToken());
        this.watcher = config.campaignsFile() == null ? null :
            new CampaignsFileWatcher(config.campaignsFile(), config.campaignsPollInterval(), pipeline);
    }

    /** Starts everything; returns once the gateway accepts connections and /health is UP. */
    public PacerServer start() throws InterruptedException
    {
        pipeline.start();
        adminAddress = admin.bind(config.adminHost(), config.adminPort(),
            new AdminHandler(pipeline, auth, health, MetricsEndpoint.NOT_AVAILABLE), config.adminMaxBodyBytes());
        if (watcher != null)
        {
            watcher.loadInitial();
            watcher.start();
        }
        gatewayAddress = gateway.bind(config.gatewayHost(), config.gatewayPort(), pipeline, config.maxFrameBytes());
        health.up();
        return this;
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
        gateway.stopIntake();
        if (watcher != null)
        {
            watcher.close();
        }
        admin.close();
        pipeline.close();
        gateway.close();
        LOG.info("pacer stopped");
    }
}
