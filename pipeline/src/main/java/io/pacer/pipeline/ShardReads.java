package io.pacer.pipeline;

import io.pacer.model.CampaignSnapshot;
import io.pacer.model.PacingShard;
import io.pacer.model.ShardRouter;

import java.util.ArrayList;
import java.util.List;

/**
 * An admin command's result, read from shards without changing them: a query's campaigns or
 * page, an update's new state, a batch's empty list. A live shard fills its own slot
 * ({@link #fill}); cluster mode's service, whose thread owns every shard, reads them all at once
 * ({@link #answer}).
 */
public final class ShardReads
{
    private ShardReads()
    {
    }

    /** Fills shard {@code shardIndex}'s slot of {@code command}'s result. */
    static void fill(final AdminCommand command, final int shardIndex, final PacingShard shard, final ShardRouter router)
    {
        switch (command.type())
        {
            case CAMPAIGN_UPDATE ->
            {
                if (router.shardOf(command.campaignId()) == shardIndex)
                {
                    command.shardResult(shardIndex, List.of(shard.snapshot(command.campaignId())));
                }
            }
            case CAMPAIGN_BATCH -> command.shardResult(shardIndex, List.of());
            case STATE_QUERY -> query(command, shardIndex, shard, router);
            default -> throw new IllegalArgumentException("not an admin command: " + command.type());
        }
    }

    private static void query(final AdminCommand command, final int shardIndex, final PacingShard shard, final ShardRouter router)
    {
        final AdminCommand.Page page = command.page();
        if (page != null)
        {
            final List<CampaignSnapshot> some = new ArrayList<>(Math.min(page.limit() + 1, shard.campaignCount()));
            shard.page(page.fromStart(), page.afterId(), page.limit() + 1, page.filter(), some);
            command.shardResult(shardIndex, some);
        }
        else if (command.allCampaigns())
        {
            final List<CampaignSnapshot> all = new ArrayList<>(shard.campaignCount());
            shard.snapshots(all);
            command.shardResult(shardIndex, all);
        }
        else if (router.shardOf(command.campaignId()) == shardIndex)
        {
            final CampaignSnapshot one = shard.snapshot(command.campaignId());
            command.shardResult(shardIndex, one == null ? List.of() : List.of(one));
        }
    }

    /**
     * Completes {@code command} from every shard of {@code shards} (indexed as {@code router}
     * routes), on the thread that owns them all. Neither advances time nor changes a shard.
     */
    public static void answer(final AdminCommand command, final List<PacingShard> shards, final ShardRouter router)
    {
        for (int i = 0, size = shards.size(); i < size; i++)
        {
            fill(command, i, shards.get(i), router);
        }
        command.completeFromShards();
    }
}
