package io.pacer.server;

import com.fasterxml.jackson.databind.JsonNode;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import static io.pacer.server.TestPacer.asap;
import static io.pacer.server.TestPacer.eventually;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * Cluster mode on a real 3-node cluster over loopback: gateways talk to any node with the same
 * protocol, and every member holds the same state.
 */
class ClusterModeIntegrationTest
{
    private static final String[] CAMPAIGNS = {
        asap(1, 1_000_000),
        asap(2, 10),
        asap(4, 1_000_000, "\"maxBidCpmMicros\":2000000"),
        asap(5, 1_000_000, "\"status\":\"PAUSED\""),
        "{\"id\":6,\"budgetMicros\":100,\"start\":\"2035-01-01T00:00:00Z\",\"end\":\"2036-01-01T00:00:00Z\"}",
        asap(8, 100),
        asap(9, 1_000_000_000),
    };

    private static TestCluster cluster;

    @BeforeAll
    static void startCluster() throws Exception
    {
        cluster = TestCluster.start(CAMPAIGNS);
    }

    @AfterAll
    static void stopCluster() throws Exception
    {
        if (cluster != null)
        {
            cluster.close();
        }
    }

    @Test
    void shouldReportEachNodesRoleOnHealthWithExactlyOneLeader() throws Exception
    {
        final List<String> roles = new ArrayList<>();
        for (int i = 0; i < TestCluster.SIZE; i++)
        {
            final int member = i;
            eventually(Duration.ofSeconds(20), () -> cluster.node(member).get("/health").statusCode() == 200);
            final JsonNode health = new com.fasterxml.jackson.databind.ObjectMapper()
                .readTree(cluster.node(member).get("/health").body());
            assertThat(health.get("status").asText()).isEqualTo("UP");
            roles.add(health.get("role").asText());
        }
        assertThat(roles).containsOnly("leader", "follower").filteredOn("leader"::equals).hasSize(1);
    }

    @Test
    void shouldAnswerAGatewayOnAFollowerAsASingleNodeAnswersTheSameInput() throws Exception
    {
        final List<String> single;
        try (TestPacer alone = TestPacer.start(CAMPAIGNS))
        {
            single = conversation(alone, 100);
        }
        final List<String> clustered = conversation(cluster.node(cluster.follower()), 100);
        assertThat(clustered).isEqualTo(single);
        assertThat(clustered).contains("NO_BID 101 UNKNOWN_CAMPAIGN", "NO_BID 104 BID_ABOVE_MAX",
            "NO_BID 105 CAMPAIGN_INACTIVE", "NO_BID 106 CAMPAIGN_INACTIVE", "BID 108", "NO_BID 109 BUDGET_EXHAUSTED");
    }

    /**
     * One gateway's conversation: a bid on each kind of campaign, one at a time, a win for every
     * BID, then bids until campaign 8 runs out. Its answers depend only on the order of its input.
     */
    private static List<String> conversation(final TestPacer node, final long base) throws Exception
    {
        final List<String> answers = new ArrayList<>();
        try (GatewayClient client = node.client())
        {
            final long[][] bids = {{999, 1_000}, {1, 3_000_000}, {2, 1_000}, {4, 3_000_000}, {5, 1_000}, {6, 1_000},
                {1, 1_000}, {8, 50_000}, {8, 60_000}, {9, 2_000}};
            for (int i = 0; i < bids.length; i++)
            {
                final long requestId = base + 1 + i;
                final String answer = client.ask(requestId, bids[i][0], bids[i][1]);
                answers.add(answer);
                if (answer.startsWith("BID"))
                {
                    client.win(requestId, bids[i][0], bids[i][1]).send();
                }
            }
        }
        return answers;
    }

    @Test
    void shouldExposeEachNodesRoleCommitPositionElectionsAndIngressBackPressureToPrometheus() throws Exception
    {
        final int leader = cluster.leader();
        final String metrics = cluster.node(leader).get("/metrics").body();
        assertThat(metrics).contains("pacer_cluster_role 2.0", "pacer_cluster_elections_total",
            "pacer_cluster_ingress_back_pressured_total", "pacer_cluster_batches_resent_total",
            "pacer_cluster_snapshots_total", "pacer_cluster_batches_in_flight");
        assertThat(metrics).containsPattern("pacer_cluster_commit_position_bytes [1-9]");
        assertThat(cluster.node(cluster.follower()).get("/metrics").body()).contains("pacer_cluster_role 0.0");
    }

    @Test
    void shouldApplyAnAdminPutThroughAFollowerAndShowItOnEveryMember() throws Exception
    {
        final TestPacer follower = cluster.node(cluster.follower());
        final HttpResponse<String> put = follower.put("/campaigns/77", asap(77, 5_000_000));
        assertThat(put.statusCode()).isEqualTo(200);
        assertThat(put.body()).contains("\"id\":77");
        assertThat(follower.get("/campaigns/77").statusCode()).isEqualTo(200);
        for (int i = 0; i < TestCluster.SIZE; i++)
        {
            final TestPacer node = cluster.node(i);
            eventually(Duration.ofSeconds(10), () -> node.get("/campaigns/77").statusCode() == 200);
        }
    }
}
