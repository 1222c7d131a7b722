package io.pacer.pipeline;

import com.lmax.disruptor.RingBuffer;
import io.pacer.model.PacingShard;
import io.pacer.model.ShardRouter;

/**
 * Reads a batch's events ahead of their handlers, for the shards it serves: before an event is
 * applied, if it was not read ahead yet, it walks that event and the next of the batch, {@link
 * #EVENTS} in all, notes each gateway event into the handler of its shard ({@link
 * PacingShard#note}: its campaign's book, its request's place in the reservations' index, a
 * notice's place in the dedupe window), then has each handler touch its notes at once, so that
 * their cache misses overlap ({@link PacingShard#touchNoted}). Changes nothing.
 * <p>
 * A handler on a thread of its own has one for itself ({@link PacingHandler#readAheadIn}); the
 * handlers sharing a loop have one between them, their {@link RingDrainer}'s, which walks the
 * events once for all the shards. A walk stops at the first event not yet published; that one is
 * read ahead when its turn comes.
 */
final class ReadAhead
{
    /**
     * How many events' lookups are noted and touched at a time, ahead of applying them: enough to
     * overlap the cache misses, few enough that the first are still in cache when their events come;
     * as many as a shard notes of each kind between touches.
     */
    static final int EVENTS = PacingShard.NOTED;

    private final RingBuffer<PacerEvent> ring;
    /** The handlers by shard ({@link ShardRouter#shardOf}); a null slot: a shard not read ahead here. */
    private final PacingHandler[] byShard;
    private final ShardRouter router;
    /** The last sequence the current batch may hold, and the last read ahead. */
    private long batchLast = -1;
    private long readThrough = -1;

    ReadAhead(final RingBuffer<PacerEvent> ring, final PacingHandler[] byShard, final ShardRouter router)
    {
        this.ring = ring;
        this.byShard = byShard;
        this.router = router;
    }

    /** A batch starts: it may hold events up to sequence {@code last}, and the walks stop there. */
    void beginBatch(final long last)
    {
        batchLast = last;
    }

    /** Before event {@code sequence} is applied: reads it and the next ahead, unless that was done. */
    void before(final long sequence)
    {
        if (sequence > readThrough)
        {
            readThrough = walk(sequence);
        }
    }

    /** @return the last sequence read ahead */
    private long walk(final long sequence)
    {
        final long last = Math.max(sequence, Math.min(batchLast, sequence + EVENTS - 1));
        long s = sequence;
        for (; s <= last && ring.isAvailable(s); s++)
        {
            final PacerEvent event = ring.get(s);
            if (fromGateway(event))
            {
                final PacingHandler owner = byShard[router.shardOf(event.campaignId)];
                if (owner != null)
                {
                    owner.noteAhead(event);
                }
            }
        }
        for (final PacingHandler handler : byShard)
        {
            if (handler != null)
            {
                handler.touchNotedAhead();
            }
        }
        return s - 1;
    }

    /** Whether {@code event} is a gateway's bid or notice, the events read ahead. */
    private static boolean fromGateway(final PacerEvent event)
    {
        final EventType type = event.type;
        return type != null && type.fromGateway();
    }
}
