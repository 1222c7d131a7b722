package io.pacer.pipeline.journal;

import io.pacer.model.ShardRouter;
import io.pacer.pipeline.journal.sbe.LossRecordDecoder;
import io.pacer.pipeline.journal.sbe.RecordHeaderDecoder;
import io.pacer.pipeline.journal.sbe.RecordType;
import io.pacer.pipeline.journal.sbe.WinRecordDecoder;

import java.nio.ByteBuffer;
import java.util.List;
import java.util.concurrent.atomic.AtomicIntegerArray;

/**
 * How many notices each shard's dedupe window will hold at most, counted on a thread of its own
 * from the journal's records before the replay reaches them: the replay tells each shard
 * ({@code PacingShard.expectNotices}), whose dedupe table then grows straight to that size when it
 * first fills instead of doubling its way there (on a 10M-event journal shorter than its window,
 * the doublings, and the collector copying what they allocated, were a third of the replay).
 *
 * <p>The census walks the records' framing only: no CRC (the segment checkers do that), and it
 * stops at the first record whose length is impossible. Notices are counted per shard in buckets
 * of an eighth of the window, by the latest record time seen; the most any run of buckets spanning
 * a window has held is the estimate. It counts every notice (duplicates and unknown campaigns too)
 * and may run ahead of or lag a shard's own time, so it is a hint, not a bound: a table sized by it
 * answers exactly as one that doubled.
 */
public final class NoticeCensus implements Runnable
{
    /** How many records pass between two publications of the estimates. */
    private static final int PUBLISH_EVERY = 4096;

    /** A segment's records to count: from {@code recordsAt} to {@code size} of {@code map}. */
    record Segment(ByteBuffer map, int recordsAt, long size)
    {
    }

    private final List<Segment> segments;
    private final ShardRouter router;
    private final long bucketMillis;
    /** Buckets that together cover a window whatever its phase; 0 when nothing is remembered. */
    private final int span;
    /** Per shard, a ring of {@link #span} bucket counts. */
    private final int[][] buckets;
    private final int[] inWindow;
    private final int[] most;
    private final AtomicIntegerArray published;
    private final Thread thread;
    private long bucket = Long.MIN_VALUE;
    private volatile boolean stop;

    /**
     * Starts counting {@code segments}' notices, all recorded as {@code header} says.
     *
     * @param name the thread's name
     */
    NoticeCensus(final JournalHeader header, final List<Segment> segments, final String name)
    {
        final int shards = header.shards();
        final long windowMillis = header.policy().noticeDedupeWindowMillis();
        this.segments = segments;
        this.router = new ShardRouter(shards);
        this.bucketMillis = Math.max(1, windowMillis / 8);
        this.span = windowMillis == 0 ? 0 : (int)((windowMillis + bucketMillis - 1) / bucketMillis) + 1;
        this.buckets = new int[shards][span];
        this.inWindow = new int[shards];
        this.most = new int[shards];
        this.published = new AtomicIntegerArray(shards);
        this.thread = new Thread(this, name);
        thread.setDaemon(true);
        if (span > 0)
        {
            thread.start();
        }
    }

    /** Shards counted for. */
    public int shards()
    {
        return most.length;
    }

    /** The most notices shard {@code shard}'s window held in the records counted so far. */
    public int expected(final int shard)
    {
        return published.get(shard);
    }

    @Override
    public void run()
    {
        for (final Segment segment : segments)
        {
            final ByteBuffer map = segment.map().duplicate().order(JournalFormat.ORDER);
            long position = segment.recordsAt();
            int records = 0;
            while (!stop && position + JournalFormat.RECORD_HEADER_LENGTH <= segment.size())
            {
                final int length = map.getInt((int)position);
                final long next = position + JournalFormat.RECORD_HEADER_LENGTH + length;
                if (length < JournalFormat.PAYLOAD_HEADER_LENGTH || length > JournalFormat.MAX_PAYLOAD ||
                    next > segment.size())
                {
                    break;
                }
                count(map, (int)position + JournalFormat.RECORD_HEADER_LENGTH);
                position = next;
                if (++records == PUBLISH_EVERY)
                {
                    records = 0;
                    publish();
                }
            }
            publish();
        }
    }

    /** Waits until every record has been counted. */
    void awaitCounted() throws InterruptedException
    {
        thread.join();
    }

    /** Stops counting and waits for the thread to end. */
    void close()
    {
        stop = true;
        if (thread.isAlive())
        {
            try
            {
                thread.join();
            }
            catch (final InterruptedException ex)
            {
                Thread.currentThread().interrupt();
            }
        }
    }

    /** Counts the record whose payload is at {@code payload} if it is a notice. */
    private void count(final ByteBuffer map, final int payload)
    {
        final byte type = map.get(payload + RecordHeaderDecoder.typeEncodingOffset());
        final int campaignAt;
        if (type == RecordType.WIN_NOTICE.value())
        {
            campaignAt = WinRecordDecoder.campaignIdEncodingOffset();
        }
        else if (type == RecordType.LOSS_NOTICE.value())
        {
            campaignAt = LossRecordDecoder.campaignIdEncodingOffset();
        }
        else
        {
            return;
        }
        final long at = Math.floorDiv(map.getLong(payload + RecordHeaderDecoder.epochMillisEncodingOffset()), bucketMillis);
        if (at > bucket)
        {
            advanceTo(at);
        }
        final int shard = router.shardOf(map.getLong(payload + campaignAt));
        buckets[shard][(int)Math.floorMod(bucket, (long)span)]++;
        if (++inWindow[shard] > most[shard])
        {
            most[shard] = inWindow[shard];
        }
    }

    private void publish()
    {
        for (int shard = 0; shard < most.length; shard++)
        {
            published.lazySet(shard, most[shard]);
        }
    }

    /** Moves the current bucket on to {@code at}, emptying the buckets that fall out of the window. */
    private void advanceTo(final long at)
    {
        final long passed = bucket == Long.MIN_VALUE ? span : Math.min(span, at - bucket);
        for (long b = at - passed + 1; b <= at; b++)
        {
            final int slot = (int)Math.floorMod(b, (long)span);
            for (int shard = 0; shard < buckets.length; shard++)
            {
                inWindow[shard] -= buckets[shard][slot];
                buckets[shard][slot] = 0;
            }
        }
        bucket = at;
    }
}
