package io.pacer.server.config;

import com.google.errorprone.annotations.Immutable;
import io.pacer.cluster.ClusterSettings;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;

/**
 * Cluster mode, {@code pacer.cluster.*}, validated once, here (the cluster module's
 * {@link ClusterSettings} checks the rest when {@link #settings} builds it).
 *
 * @param memberId                this node's index in {@code members}
 * @param members                 every member's host, by member id; empty: a single node (the default)
 * @param portBase                member i listens on port-base + 10 i + 0..4
 * @param dir                     this member's archive and consensus directories
 * @param aeronDir                its media driver's directory; blank: /dev/shm/pacer-cluster-{member-id}
 * @param leaderHeartbeatTimeout  silence from the leader that starts an election
 * @param leaderHeartbeatInterval the leader's heartbeat
 * @param electionTimeout         an election round
 * @param sessionTimeout          how long a silent node's session to the cluster lives
 * @param termLength              log and ingress term length
 * @param segmentLength           archive segment file length
 * @param snapshotInterval        how often the leader has every member snapshot; zero: never by itself
 * @param idleStrategy            how the member's agents wait: backoff, yielding or busy-spin
 * @param threading               shared or dedicated: the media driver's and archive's threads
 * @param fileSyncLevel           0, 1 or 2: whether the archive forces the log before it counts as appended
 */
@Immutable
public record ClusterConfig(
    int memberId, @SuppressWarnings("Immutable") List<String> members, int portBase, Path dir,
    String aeronDir, Duration leaderHeartbeatTimeout, Duration leaderHeartbeatInterval, Duration electionTimeout,
    Duration sessionTimeout, long termLength, long segmentLength, Duration snapshotInterval, String idleStrategy,
    String threading, int fileSyncLevel)
{
    static final String PREFIX = "pacer.cluster.";

    public ClusterConfig
    {
        members = List.copyOf(members);
        // checked on a single node too: a mistyped value must not wait for the day cluster mode is turned on
        Check.range(PREFIX + "port-base", portBase, 1024, 65_000);
        Check.positive(PREFIX + "leader-heartbeat-timeout", leaderHeartbeatTimeout);
        Check.positive(PREFIX + "leader-heartbeat-interval", leaderHeartbeatInterval);
        Check.positive(PREFIX + "election-timeout", electionTimeout);
        Check.positive(PREFIX + "session-timeout", sessionTimeout);
        Check.bytes(PREFIX + "term-length", termLength, 64 << 10, 1 << 30);
        Check.bytes(PREFIX + "segment-length", segmentLength, 64 << 10, 1 << 30);
        Check.nonNegative(PREFIX + "snapshot-interval", snapshotInterval);
        if (!ClusterSettings.IDLE_STRATEGIES.contains(idleStrategy))
        {
            throw new InvalidConfigException(PREFIX + "idle-strategy",
                "must be one of " + ClusterSettings.IDLE_STRATEGIES + ", was \"" + idleStrategy + "\"");
        }
        Check.range(PREFIX + "file-sync-level", fileSyncLevel, 0, 2);
        if (!"shared".equals(threading) && !"dedicated".equals(threading))
        {
            throw new InvalidConfigException(PREFIX + "threading", "must be shared or dedicated, was \"" + threading + "\"");
        }
        if (members.isEmpty())
        {
            if (memberId != 0)
            {
                throw new InvalidConfigException(PREFIX + "member-id",
                    "is set, but " + PREFIX + "members is empty: cluster mode is on when members names every member's host");
            }
        }
        else
        {
            Check.range(PREFIX + "member-id", memberId, 0, members.size() - 1);
            if (dir == null)
            {
                throw new InvalidConfigException(PREFIX + "dir", "must name this member's directory");
            }
        }
    }

    /** Cluster mode: {@code members} names the members. Otherwise a single node. */
    public boolean enabled()
    {
        return !members.isEmpty();
    }

    static ClusterConfig read(final ConfigReader in)
    {
        return new ClusterConfig(
            in.integer(PREFIX + "member-id"),
            in.strings(PREFIX + "members"),
            in.integer(PREFIX + "port-base"),
            in.path(PREFIX + "dir"),
            in.string(PREFIX + "aeron-dir"),
            in.duration(PREFIX + "leader-heartbeat-timeout"),
            in.duration(PREFIX + "leader-heartbeat-interval"),
            in.duration(PREFIX + "election-timeout"),
            in.duration(PREFIX + "session-timeout"),
            in.bytes(PREFIX + "term-length"),
            in.bytes(PREFIX + "segment-length"),
            in.duration(PREFIX + "snapshot-interval"),
            in.string(PREFIX + "idle-strategy"),
            in.string(PREFIX + "threading"),
            in.integer(PREFIX + "file-sync-level"));
    }

    /** The cluster module's settings, ticking every {@code tickIntervalMillis}. */
    public ClusterSettings settings(final long tickIntervalMillis)
    {
        final String driverDir = aeronDir.isBlank() ? defaultAeronDir(memberId) : aeronDir;
        try
        {
            return new ClusterSettings(memberId, members, portBase, dir.toFile(), driverDir,
                leaderHeartbeatTimeout.toMillis(), leaderHeartbeatInterval.toMillis(), electionTimeout.toMillis(),
                sessionTimeout.toMillis(), (int)termLength, (int)segmentLength, tickIntervalMillis, idleStrategy,
                "dedicated".equals(threading), fileSyncLevel);
        }
        catch (final IllegalArgumentException ex)
        {
            throw new InvalidConfigException("pacer.cluster", ex.getMessage());
        }
    }

    private static String defaultAeronDir(final int memberId)
    {
        final Path shm = Path.of("/dev/shm");
        final Path base = java.nio.file.Files.isDirectory(shm) ? shm : Path.of(System.getProperty("java.io.tmpdir"));
        return base.resolve("pacer-cluster-" + memberId + "-" + System.getProperty("user.name", "pacer")).toString();
    }
}
