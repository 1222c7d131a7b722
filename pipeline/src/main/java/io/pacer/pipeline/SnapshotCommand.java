package io.pacer.pipeline;

import io.pacer.model.PacingPolicy;

import java.util.concurrent.CompletableFuture;

/**
 * A snapshot taken as an ordered ring event: each shard writes its own slot; the replier notes
 * the journal sequence the snapshot covers (every record before it) and completes the request
 * once the journal holds those records.
 */
public final class SnapshotCommand extends CompletableFuture<SnapshotCommand>
{
    private final byte[][] shardStates;
    private final PacingPolicy policy;
    private volatile long coveredSequence = -1;

    SnapshotCommand(final int shards, final PacingPolicy policy)
    {
        this.shardStates = new byte[shards][];
        this.policy = policy;
    }

    /** Shard {@code shard} only. */
    void shardState(final int shard, final byte[] state)
    {
        shardStates[shard] = state;
    }

    /** The replier only. */
    void covered(final long nextJournalSequence)
    {
        coveredSequence = nextJournalSequence;
    }

    /** Journal records with a sequence below this are in the snapshot; -1 without a journal. */
    public long coveredSequence()
    {
        return coveredSequence;
    }

    public byte[] shardState(final int shard)
    {
        return shardStates[shard];
    }

    public int shards()
    {
        return shardStates.length;
    }

    public PacingPolicy policy()
    {
        return policy;
    }
}
