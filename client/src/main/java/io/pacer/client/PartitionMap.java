package io.pacer.client;

/**
 * Which nodes serve a campaign, in the order to try them: the first one that has a connection up
 * gets the bid. It must be a pure function of its arguments.
 */
@FunctionalInterface
public interface PartitionMap
{
    /**
     * @param campaignId the campaign
     * @param attempt    0 for the preferred node, 1 for the next one to fail over to, ...
     * @param nodes      how many nodes the client has
     * @return the node's index in the client's node list, or -1 when there is none left to try
     */
    int node(long campaignId, int attempt, int nodes);

    /**
     * Every node serves every campaign (a cluster-mode deployment, or one node): campaigns are
     * spread over the nodes by id, and a node that is down fails over to the next one.
     */
    static PartitionMap replicated()
    {
        return (campaignId, attempt, nodes) -> attempt >= nodes ? -1 :
            (int)((Long.remainderUnsigned(campaignId, nodes) + attempt) % nodes);
    }

    /**
     * Campaigns are split across independent nodes by {@code id mod nodes}; each campaign has one
     * node, and there is no failover (another node does not know the campaign).
     */
    static PartitionMap partitioned()
    {
        return (campaignId, attempt, nodes) -> attempt > 0 ? -1 : (int)Long.remainderUnsigned(campaignId, nodes);
    }

    /**
     * Several clusters, each serving its own campaigns (scale-out beyond one log): the client's
     * nodes are listed cluster by cluster, {@code nodesPerCluster} each, and {@code clusterOf}
     * says which cluster owns a campaign. Within a cluster every node serves every campaign of the
     * cluster, spread by id and failing over to the cluster's next node, never to another cluster
     * (it does not know the campaign). A campaign moved to another cluster is a new
     * {@code clusterOf} (README, "Cluster mode": moving a campaign).
     *
     * @param nodesPerCluster nodes each cluster has in the client's list, 1 or more
     * @param clusterOf       the owning cluster's index (0-based) of a campaign; a pure function
     */
    static PartitionMap clusters(final int nodesPerCluster, final java.util.function.LongToIntFunction clusterOf)
    {
        if (nodesPerCluster < 1)
        {
            throw new IllegalArgumentException("nodesPerCluster must be >= 1, was " + nodesPerCluster);
        }
        return (campaignId, attempt, nodes) ->
        {
            final int first = clusterOf.applyAsInt(campaignId) * nodesPerCluster;
            if (attempt >= nodesPerCluster || first < 0 || first + nodesPerCluster > nodes)
            {
                return -1;
            }
            return first + (int)((Long.remainderUnsigned(campaignId, nodesPerCluster) + attempt) % nodesPerCluster);
        };
    }

    /** {@link #clusters} with campaigns split over {@code clusters} clusters by {@code id mod clusters}. */
    static PartitionMap clustersById(final int clusters, final int nodesPerCluster)
    {
        return clusters(nodesPerCluster, campaignId -> (int)Long.remainderUnsigned(campaignId, clusters));
    }
}
