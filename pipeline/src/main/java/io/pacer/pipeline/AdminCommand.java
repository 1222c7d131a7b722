package io.pacer.pipeline;

import io.pacer.model.CampaignDefinition;
import io.pacer.model.CampaignFilter;
import io.pacer.model.CampaignSnapshot;
import io.pacer.model.PacingShard;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;

/**
 * An admin request that travels through the ring: an update, a batch of updates, or a read of
 * one campaign, of all, or of one page.
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
    private final List<CampaignDefinition> definitions;
    private final int loadRemaining;
    private final Page page;
    private final List<CampaignSnapshot>[] perShard;

    /** A page of campaigns: after which id (unless from the start), how many, which. */
    record Page(boolean fromStart, long afterId, int limit, CampaignFilter filter)
    {
    }

    private AdminCommand(
        final EventType type, final CampaignDefinition definition, final long campaignId, final boolean allCampaigns,
        final List<CampaignDefinition> definitions, final int loadRemaining, final Page page, final int shards)
    {
        this.type = type;
        this.definition = definition;
        this.campaignId = campaignId;
        this.allCampaigns = allCampaigns;
        this.definitions = definitions;
        this.loadRemaining = loadRemaining;
        this.page = page;
        @SuppressWarnings("unchecked")
        final List<CampaignSnapshot>[] slots = new List[shards];
        this.perShard = slots;
    }

    /** Create or replace {@code definition}; completes with the campaign's new state. */
    public static AdminCommand update(final CampaignDefinition definition, final int shards)
    {
        return new AdminCommand(EventType.CAMPAIGN_UPDATE, definition, definition.id(), false, null, 0, null, shards);
    }

    /** Read one campaign; completes with its state, or an empty list if it is unknown. */
    public static AdminCommand query(final long campaignId, final int shards)
    {
        return new AdminCommand(EventType.STATE_QUERY, null, campaignId, false, null, 0, null, shards);
    }

    /** Read every campaign; completes with their states ordered by id. */
    public static AdminCommand queryAll(final int shards)
    {
        return new AdminCommand(EventType.STATE_QUERY, null, 0, true, null, 0, null, shards);
    }

    /**
     * Read one page: up to {@code limit} campaigns matching {@code filter} with ids above
     * {@code afterId} (unsigned), or from the first when {@code fromStart}. Completes with up to
     * {@code limit + 1} states per shard, ordered by id: the first {@code limit} are the page, and
     * one more means there is a next page.
     */
    public static AdminCommand queryPage(
        final boolean fromStart, final long afterId, final int limit, final CampaignFilter filter, final int shards)
    {
        return new AdminCommand(EventType.STATE_QUERY, null, 0, false, null, 0,
            new Page(fromStart, afterId, limit, filter), shards);
    }

    /**
     * Create or replace every one of {@code definitions} (distinct ids), in order, as one event:
     * no bid sees some of them applied and others not. Journaled as one update record each.
     * Completes with an empty list once all are applied.
     */
    public static AdminCommand updateAll(final List<CampaignDefinition> definitions, final int shards)
    {
        return updateAll(definitions, definitions.size(), shards);
    }

    /**
     * {@link #updateAll(List, int)} for one batch of a larger load (a campaigns file's change, sent
     * in batches): {@code loadRemaining} is how many definitions this batch and the ones after it
     * hold, so that each shard can make room for its share at the first batch (a capacity hint only).
     */
    public static AdminCommand updateAll(final List<CampaignDefinition> definitions, final int loadRemaining, final int shards)
    {
        if (loadRemaining < definitions.size())
        {
            throw new IllegalArgumentException("a load of " + loadRemaining + " definitions cannot hold a batch of " +
                definitions.size());
        }
        return new AdminCommand(EventType.CAMPAIGN_BATCH, null, 0, false, List.copyOf(definitions), loadRemaining, null, shards);
    }

    /** The definitions in a {@link EventType#CAMPAIGN_BATCH} and in the batches of the same load after it. */
    int loadRemaining()
    {
        return loadRemaining;
    }

    /** The definitions of a {@link EventType#CAMPAIGN_BATCH}, else null. */
    public List<CampaignDefinition> definitions()
    {
        return definitions;
    }

    Page page()
    {
        return page;
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
