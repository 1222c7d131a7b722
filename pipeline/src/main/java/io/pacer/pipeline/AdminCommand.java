package io.pacer.pipeline;

import io.pacer.model.CampaignDefinition;
import io.pacer.model.CampaignSnapshot;
import io.pacer.model.PacingShard;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;

/**
 * An admin request that travels through the ring: an update, or a read of one campaign or all.
 * Each shard writes only its own result slot; the {@link Replier}, which runs after every shard,
 * completes the future with the merged result, ordered by campaign id. Completion happens on
 * the replier thread: continue elsewhere with the {@code ...Async} methods.
 */
public final class AdminCommand extends CompletableFuture<List<CampaignSnapshot>>
{
    private final EventType type;
    private final CampaignDefinition definition;
    private final long campaignId;
    private final boolean allCampaigns;
    private final List<CampaignSnapshot>[] perShard;

    private AdminCommand(
        final EventType type, final CampaignDefinition definition, final long campaignId, final boolean allCampaigns,
        final int shards)
    {
        this.type = type;
        this.definition = definition;
        this.campaignId = campaignId;
        this.allCampaigns = allCampaigns;
        @SuppressWarnings("unchecked")
        final List<CampaignSnapshot>[] slots = new List[shards];
        this.perShard = slots;
    }

    /** Create or replace {@code definition}; completes with the campaign's new state. */
    public static AdminCommand update(final CampaignDefinition definition, final int shards)
    {
        return new AdminCommand(EventType.CAMPAIGN_UPDATE, definition, definition.id(), false, shards);
    }

    /** Read one campaign; completes with its state, or an empty list if it is unknown. */
    public static AdminCommand query(final long campaignId, final int shards)
    {
        return new AdminCommand(EventType.STATE_QUERY, null, campaignId, false, shards);
    }

    /** Read every campaign; completes with their states ordered by id. */
    public static AdminCommand queryAll(final int shards)
    {
        return new AdminCommand(EventType.STATE_QUERY, null, 0, true, shards);
    }

    EventType type()
    {
        return type;
    }

    CampaignDefinition definition()
    {
        return definition;
    }

    long campaignId()
    {
        return campaignId;
    }

    boolean allCampaigns()
    {
        return allCampaigns;
    }

    /** Called by shard {@code shard} only. */
    void shardResult(final int shard, final List<CampaignSnapshot> result)
    {
        perShard[shard] = result;
    }

    /** Called by the replier, after every shard. */
    void completeFromShards()
    {
        final List<CampaignSnapshot> merged = new ArrayList<>();
        for (final List<CampaignSnapshot> part : perShard)
        {
            if (part != null)
            {
                merged.addAll(part);
            }
        }
        merged.sort(PacingShard.BY_ID);
        complete(merged);
    }
}
