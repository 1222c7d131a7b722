package io.pacer.pipeline;

import io.pacer.model.ShardCounters;

/**
 * What any thread may read of one shard while the pipeline runs: its index, its pacing counters
 * and its batch statistics, each as the shard last published them. Metrics read shards through
 * this, never through the handler that owns the shard's state.
 */
public interface ShardView
{
    int shardIndex();

    /** The shard's pacing counters; read only their published values. */
    ShardCounters counters();

    /** Ring batches seen, as published at the end of the last batch. */
    long batches();

    /** Events seen in those batches, as published. */
    long batchedEvents();

    /** Bids answered OVERLOADED because they waited past the queue deadline, as published. */
    long deadlineShed();

    /** Events waiting when the last batch started, as published. */
    long lastQueueDepth();
}
