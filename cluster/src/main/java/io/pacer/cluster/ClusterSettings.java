package io.pacer.cluster;

import java.io.File;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * One node's cluster settings ({@code pacer.cluster.*}), checked once here.
 * <p>
 * Member {@code i} listens on {@code portBase + 10 i} plus: 0 ingress (its node clients), 1
 * consensus, 2 log, 3 catch-up, 4 archive control. Its directories are under {@code dir}:
 * {@code archive/} and {@code consensus/}; its media driver's under {@code aeronDir}.
 *
 * @param memberId                  this node's member id, an index into {@code hosts}
 * @param hosts                     every member's host, by member id (3 or 5 members for a quorum that survives a loss)
 * @param portBase                  see above
 * @param dir                       this member's archive and consensus directories
 * @param aeronDir                  this member's media driver directory (under /dev/shm on Linux)
 * @param leaderHeartbeatTimeoutMs  how long followers wait for the leader before an election
 * @param leaderHeartbeatIntervalMs how often the leader heartbeats
 * @param electionTimeoutMs         an election's rounds
 * @param sessionTimeoutMs          how long a silent node client keeps its session
 * @param termLength                log and ingress term length (a message is at most an eighth)
 * @param segmentLength             archive segment file length
 * @param tickIntervalMillis        the tick timer's period
 * @param idleStrategy              how every agent of the member (and the node's client) waits for
 *                                  work: {@code backoff} (spin, yield, then park up to 1 ms: shares a
 *                                  small host), {@code yielding}, or {@code busy-spin} (pinned cores only)
 * @param dedicatedThreads          the media driver and the archive with a thread per role (sender,
 *                                  receiver, conductor; recorder, replayer) instead of one shared agent each
 * @param fileSyncLevel             0: the log is written, not forced (a commit means a majority's page
 *                                  cache holds it); 1: the archive forces the log's data before a member
 *                                  counts it as appended (a commit means a majority's disks hold it);
 *                                  2: data and file metadata
 */
public record ClusterSettings(
    int memberId, List<String> hosts, int portBase, File dir, String aeronDir,
    long leaderHeartbeatTimeoutMs, long leaderHeartbeatIntervalMs, long electionTimeoutMs, long sessionTimeoutMs,
    int termLength, int segmentLength, long tickIntervalMillis, String idleStrategy, boolean dedicatedThreads,
    int fileSyncLevel)
{
    /** The names {@link #idleStrategy} accepts. */
    public static final java.util.List<String> IDLE_STRATEGIES = java.util.List.of("backoff", "yielding", "busy-spin");

    static final int INGRESS = 0;
    static final int CONSENSUS = 1;
    static final int LOG = 2;
    static final int CATCHUP = 3;
    static final int ARCHIVE = 4;

    public ClusterSettings
    {
        hosts = List.copyOf(hosts);
        if (hosts.isEmpty())
        {
            throw new IllegalArgumentException("members must name at least one host");
        }
        if (memberId < 0 || memberId >= hosts.size())
        {
            throw new IllegalArgumentException("member-id must be 0.." + (hosts.size() - 1) + ", was " + memberId);
        }
        if (portBase < 1024 || portBase + 10 * hosts.size() > 65535)
        {
            throw new IllegalArgumentException("port-base must leave room for " + hosts.size() + " members in 1024..65535, was " + portBase);
        }
        if (leaderHeartbeatIntervalMs <= 0 || leaderHeartbeatTimeoutMs <= leaderHeartbeatIntervalMs)
        {
            throw new IllegalArgumentException("leader-heartbeat-timeout (" + leaderHeartbeatTimeoutMs +
                " ms) must exceed leader-heartbeat-interval (" + leaderHeartbeatIntervalMs + " ms), both > 0");
        }
        if (electionTimeoutMs <= 0 || sessionTimeoutMs <= leaderHeartbeatTimeoutMs)
        {
            throw new IllegalArgumentException("election-timeout must be > 0 and session-timeout must exceed " +
                "leader-heartbeat-timeout (a node's session must outlive an election)");
        }
        if (termLength < 64 * 1024 || Integer.bitCount(termLength) != 1)
        {
            throw new IllegalArgumentException("term-length must be a power of two >= 64k, was " + termLength);
        }
        if (segmentLength < termLength || Integer.bitCount(segmentLength) != 1)
        {
            throw new IllegalArgumentException("segment-length must be a power of two >= term-length, was " + segmentLength);
        }
        if (tickIntervalMillis <= 0)
        {
            throw new IllegalArgumentException("tick interval must be > 0");
        }
        if (fileSyncLevel < 0 || fileSyncLevel > 2)
        {
            throw new IllegalArgumentException("file-sync-level must be 0, 1 or 2, was " + fileSyncLevel);
        }
        if (!IDLE_STRATEGIES.contains(idleStrategy))
        {
            throw new IllegalArgumentException("idle-strategy must be one of " + IDLE_STRATEGIES + ", was " + idleStrategy);
        }
    }

    /** Aeron's cluster members string: {@code id,ingress,consensus,log,catchup,archive|...}. */
    public String clusterMembers()
    {
        final StringBuilder members = new StringBuilder();
        for (int id = 0; id < hosts.size(); id++)
        {
            members.append(id);
            for (final int offset : new int[] {INGRESS, CONSENSUS, LOG, CATCHUP, ARCHIVE})
            {
                members.append(',').append(endpoint(id, offset));
            }
            members.append('|');
        }
        return members.toString();
    }

    /** The ingress endpoints a node's client tries: {@code 0=host:port,1=...}. */
    public String ingressEndpoints()
    {
        final StringBuilder endpoints = new StringBuilder();
        for (int id = 0; id < hosts.size(); id++)
        {
            endpoints.append(endpoints.length() == 0 ? "" : ",").append(id).append('=').append(endpoint(id, INGRESS));
        }
        return endpoints.toString();
    }

    String endpoint(final int member, final int offset)
    {
        return hosts.get(member) + ':' + (portBase + 10 * member + offset);
    }

    /** This member's host. */
    String host()
    {
        return hosts.get(memberId);
    }

    /** A new idle strategy of the configured kind (each agent needs its own). */
    public org.agrona.concurrent.IdleStrategy newIdleStrategy()
    {
        return switch (idleStrategy)
        {
            case "yielding" -> new org.agrona.concurrent.YieldingIdleStrategy();
            case "busy-spin" -> new org.agrona.concurrent.BusySpinIdleStrategy();
            default -> new org.agrona.concurrent.BackoffIdleStrategy(
                10, 20, TimeUnit.MICROSECONDS.toNanos(1), TimeUnit.MILLISECONDS.toNanos(1));
        };
    }
}
