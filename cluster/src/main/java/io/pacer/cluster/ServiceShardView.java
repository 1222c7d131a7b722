package io.pacer.cluster;

import io.pacer.model.ShardCounters;
import io.pacer.pipeline.ShardView;

import java.util.ArrayList;
import java.util.List;

/**
 * What metrics read of a cluster member's shards: their published pacing counters. Batch
 * statistics belong to a ring's shard handlers, which cluster mode does not run; they read 0.
 */
record ServiceShardView(int shardIndex, ShardCounters counters) implements ShardView
{
    static List<ShardView> of(final PacerClusteredService service)
    {
        final List<ShardView> views = new ArrayList<>();
        for (int i = 0; i < service.state().shards().size(); i++)
        {
            views.add(new ServiceShardView(i, service.state().shards().get(i).counters()));
        }
        return List.copyOf(views);
    }

    @Override
    public long batches()
    {
        return 0;
    }

    @Override
    public long batchedEvents()
    {
        return 0;
    }

    @Override
    public long deadlineShed()
    {
        return 0;
    }

    @Override
    public long lastQueueDepth()
    {
        return 0;
    }
}
