package io.pacer.server;

import com.fasterxml.jackson.databind.JsonNode;
import io.pacer.client.PartitionMap;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.Map;
import java.util.function.LongToIntFunction;

import static io.pacer.server.TestPacer.asap;
import static io.pacer.server.TestPacer.eventually;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * Scale-out beyond one log: two 3-node clusters on loopback, each owning the campaigns whose id
 * is its index mod 2; gateways route by {@link PartitionMap#clusters}. A campaign moves from one
 * cluster to the other without its budget being spent twice or lost.
 */
class ClusterScaleOutIntegrationTest
{
    /** Budget of the campaign that moves, in micros; bids cost 10 each (10,000 CPM micros). */
    private static final long BUDGET = 1_000;
    private static final long BID_CPM = 10_000;
    private static final long MOVED = 4;

    private static TestCluster even;
    private static TestCluster odd;

    @BeforeAll
    static void startClusters() throws Exception
    {
        // the source's open reservations expire within the test, but not before the move reads them
        // and logs forced to disk before they count (file-sync-level 1), which must change no answer
        final Map<String, Object> shortReservations = Map.of("pacer.pacing.reservation-ttl", "4s",
            "pacer.cluster.file-sync-level", 1);
        even = TestCluster.start(shortReservations, asap(2, 1_000_000), asap(MOVED, BUDGET));
        odd = TestCluster.start(shortReservations, asap(1, 1_000_000), asap(3, 1_000_000));
    }

    @AfterAll
    static void stopClusters() throws Exception
    {
        for (final TestCluster cluster : new TestCluster[] {even, odd})
        {
            if (cluster != null)
            {
                cluster.close();
            }
        }
    }

    /** The gateway's node list, cluster by cluster, as a client library holds it. */
    private static TestPacer node(final int index)
    {
        return (index < TestCluster.SIZE ? even : odd).node(index % TestCluster.SIZE);
    }

    private static TestPacer route(final PartitionMap map, final long campaignId)
    {
        return node(map.node(campaignId, 0, 2 * TestCluster.SIZE));
    }

    @Test
    void shouldAnswerEachCampaignOnTheClusterThatOwnsItAndNowhereElse() throws Exception
    {
        final PartitionMap map = PartitionMap.clustersById(2, TestCluster.SIZE);
        for (long campaign = 1; campaign <= 3; campaign++)
        {
            try (GatewayClient client = route(map, campaign).client())
            {
                assertThat(client.ask(campaign, campaign, 1_000)).isEqualTo("BID " + campaign);
            }
        }
        try (GatewayClient wrong = odd.node(0).client())
        {
            assertThat(wrong.ask(9, 2, 1_000)).isEqualTo("NO_BID 9 UNKNOWN_CAMPAIGN");
        }
    }

    @Test
    void shouldMoveACampaignToAnotherClusterWithoutSpendingItsBudgetTwiceOrLosingAny() throws Exception
    {
        final LongToIntFunction byId = id -> (int)(id % 2);
        final PartitionMap before = PartitionMap.clusters(TestCluster.SIZE, byId);
        final TestPacer source = route(before, MOVED);
        long requestId = 100;
        // on the source: 30 BIDs, 10 won, 10 lost, 10 left open when the move starts
        try (GatewayClient client = source.client())
        {
            for (int i = 0; i < 30; i++)
            {
                requestId++;
                assertThat(client.ask(requestId, MOVED, BID_CPM)).isEqualTo("BID " + requestId);
                if (i < 10)
                {
                    client.win(requestId, MOVED, BID_CPM).send();
                }
                else if (i < 20)
                {
                    client.loss(requestId, MOVED).send();
                }
            }
        }
        eventually(Duration.ofSeconds(10), () -> source.campaign(MOVED).get("wins").asLong() == 10);

        // 1. the source stops bidding for it; what it has committed can now only shrink
        assertThat(source.put("/campaigns/" + MOVED, asap(MOVED, BUDGET, "\"status\":\"PAUSED\"")).statusCode())
            .isEqualTo(200);
        final JsonNode cut = source.campaign(MOVED);
        final long committed = cut.get("spentMicros").asLong() + cut.get("reservedMicros").asLong();
        assertThat(cut.get("spentMicros").asLong()).isEqualTo(100);
        assertThat(committed).as("10 won, 10 lost, up to 10 still reserved").isBetween(100L, 200L);
        // 2. the target takes it with the rest of the budget, and gateways route it there
        final PartitionMap after = PartitionMap.clusters(TestCluster.SIZE, id -> id == MOVED ? 1 : byId.applyAsInt(id));
        final TestPacer target = route(after, MOVED);
        assertThat(target.put("/campaigns/" + MOVED, asap(MOVED, BUDGET - committed)).statusCode()).isEqualTo(200);
        try (GatewayClient client = target.client())
        {
            // notices for the source's open BIDs follow the new route: late wins on the target
            for (long open = 121; open <= 125; open++)
            {
                client.win(open, MOVED, BID_CPM);
            }
            client.send();
            // 3. once the source's reservations have expired, its unspent commitment is handed over
            eventually(Duration.ofSeconds(20), () -> source.campaign(MOVED).get("reservedMicros").asLong() == 0);
            final long sourceSpent = source.campaign(MOVED).get("spentMicros").asLong();
            assertThat(sourceSpent).isEqualTo(100);
            assertThat(target.put("/campaigns/" + MOVED, asap(MOVED, BUDGET - sourceSpent)).statusCode()).isEqualTo(200);
            // 4. the target spends exactly the rest, then says the budget is exhausted
            while (true)
            {
                requestId++;
                final String answer = client.ask(requestId, MOVED, BID_CPM);
                if (!answer.startsWith("BID"))
                {
                    assertThat(answer).isEqualTo("NO_BID " + requestId + " BUDGET_EXHAUSTED");
                    break;
                }
                client.win(requestId, MOVED, BID_CPM).send();
            }
        }
        final long sourceSpent = source.campaign(MOVED).get("spentMicros").asLong();
        eventually(Duration.ofSeconds(10), () ->
            sourceSpent + target.campaign(MOVED).get("spentMicros").asLong() == BUDGET);
        assertThat(target.campaign(MOVED).get("reservedMicros").asLong()).isZero();
        for (int member = 0; member < TestCluster.SIZE; member++)
        {
            final TestPacer replica = odd.node(member);
            eventually(Duration.ofSeconds(10), () -> replica.campaign(MOVED).get("spentMicros").asLong() == BUDGET - sourceSpent);
        }
    }
}
