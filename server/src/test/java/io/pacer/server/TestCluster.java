package io.pacer.server;

import io.aeron.cluster.service.Cluster;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;

/**
 * Three real pacer nodes in cluster mode on loopback, each with its own home, cluster member and
 * media driver (under /dev/shm), the same campaigns file, and ports of their own.
 */
final class TestCluster implements AutoCloseable
{
    static final int SIZE = 3;

    private final TestPacer[] nodes = new TestPacer[SIZE];
    private final Path[] homes = new Path[SIZE];
    private final List<Map<String, Object>> overrides = new ArrayList<>();

    /** Port blocks handed out in this JVM: two clusters at once never share one. */
    private static final java.util.concurrent.atomic.AtomicInteger NEXT_BLOCK =
        new java.util.concurrent.atomic.AtomicInteger(ThreadLocalRandom.current().nextInt(400));

    private TestCluster(final Map<String, Object> extra, final String... campaigns) throws Exception
    {
        // below Linux's ephemeral range (32768-60999), where Aeron's host:0 endpoints take their ports
        final int portBase = 20_000 + 10 * SIZE * (NEXT_BLOCK.getAndIncrement() % 400);
        final String tag = ProcessHandle.current().pid() + "-" + portBase;
        for (int i = 0; i < SIZE; i++)
        {
            final Map<String, Object> node = new HashMap<>();
            node.put("pacer.cluster.member-id", i);
            node.put("pacer.cluster.members", List.of("127.0.0.1", "127.0.0.1", "127.0.0.1"));
            node.put("pacer.cluster.port-base", portBase);
            node.put("pacer.cluster.aeron-dir", shm().resolve("pacer-it-" + tag + "-" + i).toString());
            node.put("pacer.pipeline.tick-interval", "20ms");
            // small terms: six drivers may share /dev/shm (a container's is 64 MB by default)
            node.put("pacer.cluster.term-length", "256KiB");
            // a GC or JIT stall on a shared 2-core box must not look like a dead leader
            node.put("pacer.cluster.leader-heartbeat-timeout", "3s");
            node.putAll(extra);
            overrides.add(node);
        }
        final ExecutorService starts = Executors.newFixedThreadPool(SIZE);
        final List<Future<TestPacer>> started = new ArrayList<>();
        try
        {
            for (int i = 0; i < SIZE; i++)
            {
                final int member = i;
                started.add(starts.submit(() -> TestPacer.start(overrides.get(member), campaigns)));
            }
            for (int i = 0; i < SIZE; i++)
            {
                nodes[i] = started.get(i).get(60, TimeUnit.SECONDS);
                homes[i] = nodes[i].home;
            }
            TestPacer.eventually(Duration.ofSeconds(30), () -> leader() >= 0);
        }
        catch (final Exception | Error ex)
        {
            // nothing started may outlive a failed start: its agents would starve every later test
            for (int i = 0; i < started.size(); i++)
            {
                if (nodes[i] == null)
                {
                    try
                    {
                        nodes[i] = started.get(i).get(60, TimeUnit.SECONDS);
                        homes[i] = nodes[i].home;
                    }
                    catch (final Exception notStarted)
                    {
                        ex.addSuppressed(notStarted);
                    }
                }
            }
            close();
            throw ex;
        }
        finally
        {
            starts.shutdown();
        }
    }

    private static Path shm()
    {
        final Path shm = Path.of("/dev/shm");
        return Files.isDirectory(shm) ? shm : Path.of(System.getProperty("java.io.tmpdir"));
    }

    /** Starts a 3-node cluster whose campaigns file holds {@code campaigns}; returns once it has a leader. */
    static TestCluster start(final String... campaigns) throws Exception
    {
        return new TestCluster(Map.of(), campaigns);
    }

    /** As {@link #start(String...)}, with {@code extra} settings on every node. */
    static TestCluster start(final Map<String, Object> extra, final String... campaigns) throws Exception
    {
        return new TestCluster(extra, campaigns);
    }

    TestPacer node(final int member)
    {
        return nodes[member];
    }

    /** The member whose consensus module leads, or -1. */
    int leader()
    {
        for (int i = 0; i < SIZE; i++)
        {
            if (nodes[i] != null && nodes[i].server.clusterNode() != null &&
                nodes[i].server.clusterNode().role() == Cluster.Role.LEADER)
            {
                return i;
            }
        }
        return -1;
    }

    /** A member that is running and not the leader. */
    int follower()
    {
        final int leader = leader();
        for (int i = 0; i < SIZE; i++)
        {
            if (i != leader && nodes[i] != null)
            {
                return i;
            }
        }
        throw new IllegalStateException("no follower running");
    }

    /** Stops a node: gracefully (its client and member leave in order) or hard (its media driver first). */
    void stop(final int member, final boolean hard)
    {
        final TestPacer node = nodes[member];
        nodes[member] = null;
        if (hard)
        {
            node.server.clusterNode().closeHard();
        }
        node.stopKeepingFiles();
    }

    /** Starts a stopped node again in its home: its member recovers from its own log and catches up. */
    TestPacer restart(final int member) throws Exception
    {
        nodes[member] = TestPacer.restart(homes[member], overrides.get(member));
        return nodes[member];
    }

    @Override
    public void close() throws Exception
    {
        for (int i = 0; i < SIZE; i++)
        {
            if (nodes[i] != null)
            {
                nodes[i].server.close();
            }
        }
        for (int i = 0; i < SIZE; i++)
        {
            if (homes[i] != null)
            {
                TestPacer.deleteTree(homes[i]);
            }
            // a driver stopped hard leaves its directory behind
            TestPacer.deleteTree(Path.of((String)overrides.get(i).get("pacer.cluster.aeron-dir")));
        }
    }
}
