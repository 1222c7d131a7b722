package io.pacer.cluster;

import io.aeron.archive.Archive;
import io.aeron.archive.ArchiveThreadingMode;
import io.aeron.archive.client.AeronArchive;
import io.aeron.cluster.ClusterControl;
import io.aeron.cluster.ClusteredMediaDriver;
import io.aeron.cluster.ConsensusModule;
import io.aeron.cluster.service.Cluster;
import io.aeron.cluster.service.ClusteredServiceContainer;
import io.aeron.driver.MediaDriver;
import io.aeron.driver.ThreadingMode;
import org.agrona.CloseHelper;
import org.agrona.ErrorHandler;
import org.agrona.concurrent.IdleStrategy;
import org.agrona.concurrent.NoOpLock;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.File;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import java.util.function.Supplier;

/**
 * One cluster member, as a pacer node hosts it: a media driver, an archive and a consensus
 * module ({@link ClusteredMediaDriver}), and a service container running the
 * {@link PacerClusteredService}. The way Aeron's own samples and system tests compose a member,
 * with sizes, timeouts, idle strategies and threading from {@link ClusterSettings} (the default,
 * backoff in shared threading, shares a small host; busy spinning starves it).
 */
public final class ClusterNode implements AutoCloseable
{
    private static final Logger LOG = LoggerFactory.getLogger(ClusterNode.class);

    /** How long a closing member's driver outlives its consensus module, to send the log's end. */
    private static final long LOG_LINGER_MILLIS = 100;

    private final PacerClusteredService service;
    private final ClusteredMediaDriver driver;
    private final ClusteredServiceContainer container;
    private boolean closed;

    private ClusterNode(
        final PacerClusteredService service, final ClusteredMediaDriver driver, final ClusteredServiceContainer container)
    {
        this.service = service;
        this.driver = driver;
        this.container = container;
    }

    /** Starts this node's member; it joins the others (or waits for them) in the background. */
    public static ClusterNode launch(final ClusterSettings settings, final PacerClusteredService service)
    {
        final String aeronDir = settings.aeronDir();
        final Supplier<IdleStrategy> idle = settings::newIdleStrategy;
        final String host = settings.host();
        // every component gets one: Aeron's default handler exits the process when its driver stops answering
        final ErrorHandler errors = error -> LOG.error("cluster member {}: {}", settings.memberId(), error.toString(), error);

        final MediaDriver.Context driverContext = new MediaDriver.Context()
            .aeronDirectoryName(aeronDir)
            .threadingMode(settings.dedicatedThreads() ? ThreadingMode.DEDICATED : ThreadingMode.SHARED)
            .sharedIdleStrategy(idle.get())
            .conductorIdleStrategy(idle.get())
            .senderIdleStrategy(idle.get())
            .receiverIdleStrategy(idle.get())
            .termBufferSparseFile(true)
            .publicationTermBufferLength(settings.termLength())
            .ipcTermBufferLength(settings.termLength())
            .dirDeleteOnStart(true)
            .dirDeleteOnShutdown(true)
            .errorHandler(errors);

        final Archive.Context archiveContext = new Archive.Context()
            .aeronDirectoryName(aeronDir)
            .archiveId(settings.memberId())
            .archiveDir(new File(settings.dir(), "archive"))
            .controlChannel("aeron:udp?endpoint=" + settings.endpoint(settings.memberId(), ClusterSettings.ARCHIVE))
            .localControlChannel("aeron:ipc?term-length=64k")
            .replicationChannel("aeron:udp?endpoint=" + host + ":0")
            .archiveClientContext(new AeronArchive.Context().controlResponseChannel("aeron:udp?endpoint=" + host + ":0")
                .errorHandler(errors))
            .recordingEventsEnabled(false)
            .threadingMode(settings.dedicatedThreads() ? ArchiveThreadingMode.DEDICATED : ArchiveThreadingMode.SHARED)
            .idleStrategySupplier(idle)
            .segmentFileLength(settings.segmentLength())
            .fileSyncLevel(settings.fileSyncLevel())
            .catalogFileSyncLevel(settings.fileSyncLevel())
            .errorHandler(errors);

        final AeronArchive.Context localArchive = new AeronArchive.Context()
            .lock(NoOpLock.INSTANCE)
            .controlRequestChannel(archiveContext.localControlChannel())
            .controlRequestStreamId(archiveContext.localControlStreamId())
            .controlResponseChannel(archiveContext.localControlChannel())
            .aeronDirectoryName(aeronDir)
            .errorHandler(errors);

        final File clusterDir = new File(settings.dir(), "consensus");
        final ConsensusModule.Context consensusContext = new ConsensusModule.Context()
            .clusterMemberId(settings.memberId())
            .clusterMembers(settings.clusterMembers())
            .clusterDir(clusterDir)
            .archiveContext(localArchive.clone())
            .ingressChannel("aeron:udp?term-length=" + settings.termLength())
            .logChannel("aeron:udp?term-length=" + settings.termLength())
            .replicationChannel("aeron:udp?endpoint=" + host + ":0")
            .leaderHeartbeatTimeoutNs(TimeUnit.MILLISECONDS.toNanos(settings.leaderHeartbeatTimeoutMs()))
            .leaderHeartbeatIntervalNs(TimeUnit.MILLISECONDS.toNanos(settings.leaderHeartbeatIntervalMs()))
            .electionTimeoutNs(TimeUnit.MILLISECONDS.toNanos(settings.electionTimeoutMs()))
            .sessionTimeoutNs(TimeUnit.MILLISECONDS.toNanos(settings.sessionTimeoutMs()))
            .fileSyncLevel(settings.fileSyncLevel())
            .idleStrategySupplier(idle)
            .errorHandler(errors);

        final ClusteredServiceContainer.Context serviceContext = new ClusteredServiceContainer.Context()
            .aeronDirectoryName(aeronDir)
            .archiveContext(localArchive.clone())
            .clusterDir(clusterDir)
            .clusteredService(service)
            .idleStrategySupplier(idle)
            .errorHandler(errors);

        ClusteredMediaDriver driver = null;
        try
        {
            driver = ClusteredMediaDriver.launch(driverContext, archiveContext, consensusContext);
            final ClusteredServiceContainer container = ClusteredServiceContainer.launch(serviceContext);
            LOG.info("cluster member {} of {} started: {}", settings.memberId(), settings.hosts().size(),
                settings.clusterMembers());
            return new ClusterNode(service, driver, container);
        }
        catch (final RuntimeException ex)
        {
            CloseHelper.quietClose(driver);
            throw ex;
        }
    }

    /** This member's role now, from its consensus module: leader, follower or candidate. */
    public Cluster.Role role()
    {
        final io.aeron.Counter counter = driver.consensusModule().context().clusterNodeRoleCounter();
        return counter == null || counter.isClosed() ? Cluster.Role.FOLLOWER : Cluster.Role.get(counter.get());
    }

    /** The log position a majority holds, as this member knows it. */
    public long commitPosition()
    {
        final io.aeron.Counter counter = driver.consensusModule().context().commitPositionCounter();
        return counter == null || counter.isClosed() ? -1 : counter.get();
    }

    /**
     * Has every member take a snapshot (Aeron's SNAPSHOT control toggle), if this member leads and
     * no other control action is under way.
     *
     * @return whether the request was made
     */
    public boolean requestSnapshot()
    {
        final io.aeron.Counter toggle = driver.consensusModule().context().controlToggleCounter();
        return role() == Cluster.Role.LEADER && toggle != null && !toggle.isClosed() &&
            ClusterControl.ToggleState.SNAPSHOT.toggle(toggle);
    }

    /** Snapshots this member has taken. */
    public long snapshots()
    {
        final io.aeron.Counter counter = driver.consensusModule().context().snapshotCounter();
        return counter == null || counter.isClosed() ? 0 : counter.get();
    }

    public PacerClusteredService service()
    {
        return service;
    }

    /** Stops the member as a crash would look to the others: its media driver goes first. */
    public synchronized void closeHard()
    {
        if (!closed)
        {
            closed = true;
            try
            {
                CloseHelper.quietClose(driver.mediaDriver());
                CloseHelper.quietCloseAll(container, driver);
            }
            finally
            {
                service.closeJournal();
            }
        }
    }

    /**
     * Stops the member: its consensus module first (as Aeron's own test nodes do), so that the
     * followers of a leader see its log end and elect at once rather than after the heartbeat
     * timeout; then its service, archive and driver.
     */
    @Override
    public synchronized void close()
    {
        if (!closed)
        {
            closed = true;
            try
            {
                CloseHelper.closeAll(driver.consensusModule(), container);
                // the driver sends the log's end of stream once the consensus module has let go of it
                LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(LOG_LINGER_MILLIS));
                CloseHelper.closeAll(driver);
            }
            finally
            {
                service.closeJournal();
            }
        }
    }
}
