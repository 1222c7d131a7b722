package io.pacer.client;

import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/** Which node a campaign's bid goes to, and where it fails over. */
class PartitionMapTest
{
    private static List<Integer> tries(final PartitionMap map, final long campaignId, final int nodes)
    {
        final List<Integer> order = new ArrayList<>();
        for (int attempt = 0, node; (node = map.node(campaignId, attempt, nodes)) >= 0; attempt++)
        {
            order.add(node);
        }
        return order;
    }

    @Test
    void shouldKeepACampaignOnItsOwnClustersNodesAndFailOverOnlyWithinIt()
    {
        final PartitionMap map = PartitionMap.clustersById(2, 3);
        assertThat(tries(map, 4, 6)).containsExactly(1, 2, 0);
        assertThat(tries(map, 7, 6)).containsExactly(4, 5, 3);
        assertThat(tries(map, -1L, 6)).as("ids are unsigned").containsExactly(3 + (int)Long.remainderUnsigned(-1L, 3),
            3 + (int)((Long.remainderUnsigned(-1L, 3) + 1) % 3), 3 + (int)((Long.remainderUnsigned(-1L, 3) + 2) % 3));
    }

    @Test
    void shouldRouteAMovedCampaignToItsNewClusterOnly()
    {
        final PartitionMap moved = PartitionMap.clusters(3, id -> id == 4 ? 1 : (int)(id % 2));
        assertThat(tries(moved, 4, 6)).containsExactly(4, 5, 3);
        assertThat(tries(moved, 6, 6)).containsExactly(0, 1, 2);
    }

    @Test
    void shouldOfferNoNodeForAClusterTheClientDoesNotHave()
    {
        assertThat(tries(PartitionMap.clusters(3, id -> 2), 1, 6)).isEmpty();
    }
}
