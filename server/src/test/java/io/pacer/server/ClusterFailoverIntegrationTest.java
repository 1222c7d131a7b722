package io.pacer.server;

import com.fasterxml.jackson.databind.JsonNode;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;

import static io.pacer.server.TestPacer.asap;
import static io.pacer.server.TestPacer.eventually;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * Members die while gateways bid through the others: a new leader takes over, every request is
 * answered exactly once, and every surviving member books exactly what the answers imply. Each
 * test has a fresh 3-node cluster.
 */
class ClusterFailoverIntegrationTest
{
    private static final long CAMPAIGN = 1;
    private static final long BID_CPM = 1_000_000;
    private static final long WIN_CPM = 500_000;
    private static final int WINDOW = 32;

    private TestCluster cluster;

    @AfterEach
    void stopCluster() throws Exception
    {
        if (cluster != null)
        {
            cluster.close();
        }
    }

    @Test
    void shouldLoseNoDecisionWhenTheLeaderStopsGracefullyUnderTraffic() throws Exception
    {
        killLeaderUnderTraffic(false);
    }

    @Test
    void shouldLoseNoDecisionWhenTheLeaderIsKilledHardUnderTraffic() throws Exception
    {
        killLeaderUnderTraffic(true);
    }

    private void killLeaderUnderTraffic(final boolean hard) throws Exception
    {
        // the default heartbeat timeout of 1 s: the failover time is what is measured here
        cluster = TestCluster.start(Map.of("pacer.cluster.leader-heartbeat-timeout", "1s"), asap(CAMPAIGN, 1_000_000_000_000L));
        final int leader = cluster.leader();
        final int survivor = cluster.follower();
        final Traffic traffic = new Traffic(cluster.node(survivor));
        final CompletableFuture<Void> running = CompletableFuture.runAsync(traffic);
        eventually(Duration.ofSeconds(10), () -> traffic.answered() > 2_000);

        final long killedAt = System.nanoTime();
        cluster.stop(leader, hard);
        final long stopMillis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - killedAt);
        eventually(Duration.ofSeconds(20), () -> cluster.leader() >= 0 && cluster.leader() != leader);
        final long toNewLeaderMillis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - killedAt);
        final long answeredAtNewLeader = traffic.answered();
        assertThat(toNewLeaderMillis).as("new leader within the heartbeat timeout and an election").isLessThan(10_000);
        eventually(Duration.ofSeconds(20), () -> traffic.answered() > answeredAtNewLeader + 2_000);
        traffic.stop();
        running.get(30, TimeUnit.SECONDS);
        System.out.printf("cluster failover (%s): stop took %d ms, new leader after %d ms; %d requests, %d BIDs, longest " +
            "wait for an answer %d ms%n", hard ? "hard" : "graceful", stopMillis, toNewLeaderMillis, traffic.sent, traffic.bids,
            TimeUnit.NANOSECONDS.toMillis(traffic.longestWaitNanos));

        assertThat(traffic.duplicates).as("requests answered twice").isZero();
        assertThat(traffic.answeredIds).hasSize((int)traffic.sent);
        assertThat(traffic.bids).isPositive();
        final io.pacer.cluster.ClusterIngress client = cluster.node(survivor).server.clusterIngress();
        assertThat(client.leaderChanges()).as("the survivor's client was told of the new leader").isPositive();
        System.out.printf("cluster failover (%s): the survivor resent %d batch(es); members answered %d resent batch(es) " +
            "from their windows%n", hard ? "hard" : "graceful", client.resentBatches(),
            cluster.node(survivor).server.clusterNode().service().duplicateBatches());
        for (int member = 0; member < TestCluster.SIZE; member++)
        {
            if (member == leader)
            {
                continue;
            }
            final TestPacer node = cluster.node(member);
            // the last notices are applied a batch or two after their window's answers
            eventually(Duration.ofSeconds(20), () -> settled(node.campaign(CAMPAIGN), traffic));
            final JsonNode state = node.campaign(CAMPAIGN);
            assertThat(state.get("bids").asLong()).as("BIDs booked on member %d", member).isEqualTo(traffic.bids);
            assertThat(state.get("wins").asLong()).isEqualTo(traffic.wins);
            assertThat(state.get("spentMicros").asLong()).isEqualTo(traffic.wins * WIN_CPM / 1_000);
            assertThat(state.get("reservedMicros").asLong()).as("reservations left open").isZero();
        }
        // a member's audit journal replays to the same decisions, through bin/pacer replay's own command
        final int audited = survivor;
        final java.nio.file.Path journal = cluster.node(audited).home.resolve("data/cluster/journal");
        cluster.stop(audited, false);
        final JournalIntegrationTest.Run replay = JournalIntegrationTest.cli("replay", "--journal", journal.toString());
        assertThat(replay.exitCode()).as(replay.out() + replay.err()).isZero();
        assertThat(replay.out()).contains("mismatches 0");
        final io.pacer.pipeline.journal.JournalReplay replayed = io.pacer.pipeline.journal.JournalReplay.ofJournal(
            new io.pacer.pipeline.journal.JournalReader(journal), io.pacer.pipeline.journal.JournalReplay.Observer.NONE);
        assertThat(replayed.mismatches()).isZero();
        assertThat(replayed.state(CAMPAIGN).bids()).isEqualTo(traffic.bids);
        assertThat(replayed.state(CAMPAIGN).wins()).isEqualTo(traffic.wins);
        // and the member's recorded log, read from its archive, decides the same again: its journal
        // equals the log's projection, and the projection audits with 0 mismatches
        final JournalIntegrationTest.Run fromLog = JournalIntegrationTest.cli("replay", "--cluster-dir",
            journal.getParent().toString(), "--campaign", Long.toString(CAMPAIGN), "--format", "json");
        assertThat(fromLog.exitCode()).as(fromLog.out() + fromLog.err()).isZero();
        assertThat(fromLog.err()).contains("equals its log's projection");
        final JsonNode report = new com.fasterxml.jackson.databind.ObjectMapper().readTree(fromLog.out());
        assertThat(report.get("mismatches").asLong()).isZero();
        assertThat(fromLog.out()).contains("\"bids\":" + traffic.bids, "\"wins\":" + traffic.wins);
    }

    private static boolean settled(final JsonNode state, final Traffic traffic)
    {
        return state.get("wins").asLong() == traffic.wins && state.get("reservedMicros").asLong() == 0 &&
            state.get("bids").asLong() == traffic.bids;
    }

    @Test
    void shouldCatchUpAFollowerThatWasStoppedAndStartedAgainFromItsSnapshotAndTheLog() throws Exception
    {
        cluster = TestCluster.start(asap(CAMPAIGN, 1_000_000_000_000L));
        final int leader = cluster.leader();
        final int follower = cluster.follower();
        final int other = 3 - follower - leader;
        try (GatewayClient client = cluster.node(other).client())
        {
            for (int i = 1; i <= 100; i++)
            {
                assertThat(client.ask(i, CAMPAIGN, BID_CPM)).isEqualTo("BID " + i);
                client.win(i, CAMPAIGN, WIN_CPM).send();
            }
        }
        // every member snapshots; the follower will start from its snapshot, then the log after it
        final io.pacer.cluster.ClusterNode leading = cluster.node(leader).server.clusterNode();
        assertThat(leading.requestSnapshot()).isTrue();
        final io.pacer.cluster.ClusterNode following = cluster.node(follower).server.clusterNode();
        eventually(Duration.ofSeconds(20), () -> following.snapshots() == 1);
        // killed, not stopped: it restarts from an unclean mark file and archive
        cluster.stop(follower, true);
        try (GatewayClient client = cluster.node(other).client())
        {
            for (int i = 101; i <= 200; i++)
            {
                assertThat(client.ask(i, CAMPAIGN, BID_CPM)).isEqualTo("BID " + i);
                client.win(i, CAMPAIGN, WIN_CPM).send();
            }
        }
        final TestPacer restarted = cluster.restart(follower);
        eventually(Duration.ofSeconds(30), () -> restarted.get("/health").statusCode() == 200);
        eventually(Duration.ofSeconds(30), () -> restarted.campaign(CAMPAIGN).get("wins").asLong() == 200);
        assertThat(restarted.server.clusterNode().service().snapshotsLoaded()).isEqualTo(1);
        assertThat(restarted.campaign(CAMPAIGN).get("spentMicros").asLong()).isEqualTo(200 * WIN_CPM / 1_000);
        try (GatewayClient client = restarted.client())
        {
            assertThat(client.ask(1_000, CAMPAIGN, BID_CPM)).isEqualTo("BID 1000");
        }
        // its log, across the crash, the snapshot and the catch-up, still audits against its journal
        final java.nio.file.Path memberDir = restarted.home.resolve("data/cluster");
        cluster.stop(follower, false);
        final JournalIntegrationTest.Run fromLog = JournalIntegrationTest.cli("replay", "--cluster-dir", memberDir.toString());
        assertThat(fromLog.exitCode()).as(fromLog.out() + fromLog.err()).isZero();
        assertThat(fromLog.err()).contains("equals its log's projection");
    }

    /** One gateway pipelining windows of bids and settling every BID with a win or a loss, until stopped. */
    private static final class Traffic implements Runnable
    {
        private final TestPacer node;
        private final AtomicBoolean stop = new AtomicBoolean();
        private final Set<Long> answeredIds = new HashSet<>();
        private volatile long answered;
        private long sent;
        private long bids;
        private long wins;
        private long duplicates;
        private long longestWaitNanos;

        Traffic(final TestPacer node)
        {
            this.node = node;
        }

        long answered()
        {
            return answered;
        }

        void stop()
        {
            stop.set(true);
        }

        @Override
        public void run()
        {
            try (GatewayClient client = node.client())
            {
                client.timeoutMillis(30_000);
                long requestId = 0;
                final long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
                while (!stop.get() && System.nanoTime() < deadline)
                {
                    for (int i = 0; i < WINDOW; i++)
                    {
                        client.bid(++requestId, CAMPAIGN, BID_CPM);
                    }
                    sent += WINDOW;
                    final long start = System.nanoTime();
                    client.send();
                    final List<String> answers = client.read(WINDOW);
                    longestWaitNanos = Math.max(longestWaitNanos, System.nanoTime() - start);
                    for (final String answer : answers)
                    {
                        final long id = Long.parseLong(answer.split(" ")[1]);
                        if (!answeredIds.add(id))
                        {
                            duplicates++;
                        }
                        if (answer.startsWith("BID"))
                        {
                            bids++;
                            if (id % 2 == 0)
                            {
                                client.win(id, CAMPAIGN, WIN_CPM);
                                wins++;
                            }
                            else
                            {
                                client.loss(id, CAMPAIGN);
                            }
                        }
                    }
                    client.send();
                    answered += answers.size();
                }
            }
            catch (final Exception ex)
            {
                throw new IllegalStateException(ex);
            }
        }
    }
}
