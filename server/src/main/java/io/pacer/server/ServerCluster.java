package io.pacer.server;

import io.aeron.cluster.service.Cluster;
import io.pacer.cluster.ClusterIngress;
import io.pacer.cluster.ClusterLogAudit;
import io.pacer.cluster.ClusterNode;
import io.pacer.cluster.ClusterSettings;
import io.pacer.cluster.MemberJournal;
import io.pacer.cluster.PacerClusteredService;
import io.pacer.cluster.PacerState;
import io.pacer.monitoring.PacerMetrics;
import io.pacer.pipeline.Replier;
import io.pacer.pipeline.RingConsumer;
import io.pacer.server.config.PacerConfig;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

/**
 * A pacer node's part in cluster mode: its member ({@link ClusterNode}, with the pacing service)
 * and its cluster client ({@link ClusterIngress}, the ring's one consumer). The gateway, admin
 * and watcher publish into the ring exactly as on a single node.
 */
final class ServerCluster implements AutoCloseable
{
    private final ClusterSettings settings;
    private final PacerClusteredService service;
    private final Duration snapshotInterval;
    private volatile ClusterIngress ingress;
    private volatile ClusterNode node;
    private ScheduledExecutorService snapshots;

    ServerCluster(final PacerConfig config)
    {
        this.settings = config.cluster().settings(config.pipeline().tickIntervalMillis());
        this.snapshotInterval = config.cluster().snapshotInterval();
        // every member journals what it applies, for bin/pacer replay (the log stays the source of truth)
        final MemberJournal journal = new MemberJournal(ClusterLogAudit.memberJournal(settings.dir().toPath()),
            config.pipeline().shards(), config.pipeline().policy(), config.journal().segmentBytes());
        this.service = new PacerClusteredService(
            new PacerState(config.pipeline().shards(), config.pipeline().policy()), settings.tickIntervalMillis(), journal);
    }

    /** The ring's consumer: this node's cluster client. */
    RingConsumer.Factory consumer(final Replier.DecisionListener decisions)
    {
        return poller ->
        {
            final ClusterIngress created = new ClusterIngress(settings, poller, service, decisions);
            ingress = created;
            return created;
        };
    }

    /**
     * Where the campaigns watcher keeps the file as it last applied it, so that a node started
     * again with the file unchanged does not apply it again over admin changes made since.
     */
    Path appliedCampaignsFile()
    {
        return CampaignsFileWatcher.appliedCopyIn(settings.dir().toPath());
    }

    /** Starts this node's member; it finds the others in the background. */
    void launch()
    {
        try
        {
            Files.createDirectories(settings.dir().toPath());
        }
        catch (final IOException ex)
        {
            throw new UncheckedIOException("cannot create " + settings.dir(), ex);
        }
        node = ClusterNode.launch(settings, service);
        if (!snapshotInterval.isZero())
        {
            // every node asks; only the leader's request is made (Aeron's SNAPSHOT toggle)
            snapshots = Executors.newSingleThreadScheduledExecutor(
                io.pacer.pipeline.PacerThreads.factory("pacer-cluster-snapshots"));
            final long millis = snapshotInterval.toMillis();
            snapshots.scheduleWithFixedDelay(() -> node.requestSnapshot(), millis, millis,
                TimeUnit.MILLISECONDS);
        }
    }

    /** Whether this node's client is connected to a leader. */
    boolean connected()
    {
        final ClusterIngress client = ingress;
        return client != null && client.connected();
    }

    /** leader, follower or candidate. */
    String role()
    {
        final ClusterNode member = node;
        return switch (member == null ? Cluster.Role.FOLLOWER : member.role())
        {
            case LEADER -> "leader";
            case CANDIDATE -> "candidate";
            case FOLLOWER -> "follower";
        };
    }

    ClusterNode node()
    {
        return node;
    }

    ClusterIngress ingress()
    {
        return ingress;
    }

    void register(final PacerMetrics metrics)
    {
        metrics.gauge("pacer.cluster.role", "This node's cluster role: 0 follower, 1 candidate, 2 leader", null,
            () -> node == null ? 0 : node.role().code());
        metrics.gauge("pacer.cluster.commit.position", "The log position a majority holds, as this member knows it",
            "bytes", () -> node == null ? -1 : node.commitPosition());
        metrics.counter("pacer.cluster.elections", "New leadership terms this member's log has held", null,
            service::leadershipTerms);
        metrics.counter("pacer.cluster.ingress.back.pressured",
            "Batches this node offered to the cluster and had to retry: ingress back-pressure", null,
            () -> ingress == null ? 0 : ingress.backPressured());
        metrics.counter("pacer.cluster.batches.resent", "Unanswered batches sent again after a leader change or reconnect",
            null, () -> ingress == null ? 0 : ingress.resentBatches());
        metrics.counter("pacer.cluster.batches.duplicate",
            "Resent batches this member answered from its window instead of deciding again", null, service::duplicateBatches);
        metrics.counter("pacer.cluster.answers.late",
            "Times an answer was so late that this node sent every unanswered batch again", null,
            () -> ingress == null ? 0 : ingress.lateResends());
        metrics.counter("pacer.cluster.answers.unsent",
            "Answers this member, leading, could not send to a back-pressured or gone node (it resends)", null,
            service::unsentAnswers);
        metrics.counter("pacer.cluster.snapshots", "Snapshots this member has taken", null,
            () -> node == null ? 0 : node.snapshots());
        metrics.gauge("pacer.cluster.batches.in.flight", "Batches this node has sent and not yet had answered", null,
            () -> ingress == null ? 0 : ingress.inFlight());
    }

    /** Stops the member (after the pipeline, so that its client stopped first). */
    @Override
    public void close()
    {
        if (snapshots != null)
        {
            snapshots.shutdownNow();
        }
        final ClusterNode member = node;
        if (member != null)
        {
            member.close();
        }
        else if (service.journal() != null)
        {
            service.journal().close();
        }
    }
}
