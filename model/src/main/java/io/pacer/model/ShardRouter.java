package io.pacer.model;

/** Chooses a campaign's shard: {@code campaignId & (shards - 1)}, shards a power of two. */
public final class ShardRouter
{
    private final int mask;

    public ShardRouter(final int shards)
    {
        if (shards < 1 || Integer.bitCount(shards) != 1)
        {
            throw new IllegalArgumentException("shards must be a power of two >= 1, was " + shards);
        }
        this.mask = shards - 1;
    }

    public int shardOf(final long campaignId)
    {
        return (int)(campaignId & mask);
    }

    public int shards()
    {
        return mask + 1;
    }
}
