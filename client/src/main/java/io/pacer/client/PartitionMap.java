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
}
