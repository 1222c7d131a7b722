package io.pacer.pipeline.journal;

import io.pacer.model.ShardRouter;
import io.pacer.pipeline.journal.sbe.LossRecordDecoder;
import io.pacer.pipeline.journal.sbe.RecordHeaderDecoder;
import io.pacer.pipeline.journal.sbe.RecordType;
import io.pacer.pipeline.journal.sbe.WinRecordDecoder;
import org.agrona.concurrent.UnsafeBuffer;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.List;

/**
 * How many notices each shard's dedupe window will hold at most, counted from the journal's
 * records before the replay applies any: the replay tells each shard
 * ({@code PacingShard.expectNotices}), whose dedupe table then grows straight to that size when it
 * first fills instead of doubling its way there (on a 10M-event journal shorter than its window,
 * the doublings, and the collector copying what they allocated, were a third of the replay).
 *
 * <p>The census walks the records' framing only: no CRC (the segment checkers do that); it maps
 * one segment at a time and stops quietly at the first record it cannot read. Notices are counted
 * per shard in buckets of an eighth of the window, by the latest record time seen; the most any
 * run of buckets spanning a window has held is the estimate (at most a bucket's worth above the
 * true most). It counts every notice, duplicates and unknown campaigns too, and a shard's own time
 * may differ from the latest record time, so it is a hint, not a bound: a table sized by it answers
 * exactly as one that doubled.
 *
 * <p>It counts on the reader's thread, before the first record is handed over: ~0.13 s for 10M
 * records. Counted alongside the
 * replay on a thread of its own, as it once was, it cost the replay more than its own time: the
 * replay's first growths came before the count was whole, and the counting thread took the core
 * the compiler needed while the replay loop still ran uncompiled.
 */
public final class NoticeCensus
{
    /** A notice's record must reach this far into its payload: the campaign id's end. */
    private static final int NOTICE_LENGTH = Math.max(WinRecordDecoder.campaignIdEncodingOffset(),
        LossRecordDecoder.campaignIdEncodingOffset()) + Long.BYTES;

    /** A segment's records to count: from {@code recordsAt} to {@code size} of {@code file}. */
    record Segment(Path file, int recordsAt, long size)
    {
    }

    private final ShardRouter router;
    private final long bucketMillis;
    /** Buckets that together cover a window whatever its phase; 0 when nothing is remembered. */
    private final int span;
    /** Per shard, a ring of {@link #span} bucket counts. */
    private final int[][] buckets;
    private final int[] inWindow;
    private final int[] most;
    private long bucket = Long.MIN_VALUE;
    /** Where {@link #bucket} lies in each shard's ring of buckets. */
    private int slot;
    /** The first millisecond past {@link #bucket} (saturated): a notice stamped before it counts there, no division needed. */
    private long bucketEndMillis = Long.MIN_VALUE;

    private NoticeCensus(final int shards, final long windowMillis)
    {
        this.router = new ShardRouter(shards);
        this.bucketMillis = Math.max(1, windowMillis / 8);
        this.span = windowMillis <= 0 ? 0 :
            (int)(windowMillis / bucketMillis + (windowMillis % bucketMillis == 0 ? 0 : 1)) + 1;
        this.buckets = new int[shards][span];
        this.inWindow = new int[shards];
        this.most = new int[shards];
    }

    /**
     * Counts {@code segments}' notices, all recorded as {@code header} says.
     *
     * @return the census, or null if {@code header} cannot be counted for (no shard router for its shards)
     */
    static NoticeCensus count(final JournalHeader header, final List<Segment> segments)
    {
        final NoticeCensus census;
        try
        {
            census = new NoticeCensus(header.shards(), header.policy().noticeDedupeWindowMillis());
        }
        catch (final IllegalArgumentException ex)
        {
            // shards that are no power of two: the reader reports the journal as it finds it
            return null;
        }
        if (census.span > 0)
        {
            census.count(segments);
        }
        return census;
    }

    /** Shards counted for. */
    public int shards()
    {
        return most.length;
    }

    /** The most notices shard {@code shard}'s window held in the records counted. */
    public int expected(final int shard)
    {
        return most[shard];
    }

    private void count(final List<Segment> segments)
    {
        try
        {
            for (final Segment segment : segments)
            {
                if (!count(segment))
                {
                    break;
                }
            }
        }
        catch (final IOException | RuntimeException ex)
        {
            // a hint only: the reader finds and reports whatever is wrong with the journal
        }
    }

    /** @return whether every record of the segment could be read */
    private boolean count(final Segment segment) throws IOException
    {
        final ByteBuffer map;
        try (FileChannel channel = FileChannel.open(segment.file(), StandardOpenOption.READ))
        {
            map = channel.map(FileChannel.MapMode.READ_ONLY, 0, segment.size());
        }
        final UnsafeBuffer records = new UnsafeBuffer(map);
        final long size = segment.size();
        int position = segment.recordsAt();
        while (position + JournalFormat.RECORD_HEADER_LENGTH <= size)
        {
            final int length = records.getInt(position, JournalFormat.ORDER);
            if (!SegmentChecker.isFramed(position, length, size))
            {
                return false;
            }
            count(records, position + JournalFormat.RECORD_HEADER_LENGTH, length);
            position += JournalFormat.RECORD_HEADER_LENGTH + length;
        }
        return true;
    }

    /** Counts the record of {@code length} bytes whose payload is at {@code payload} if it is a notice. */
    private void count(final UnsafeBuffer map, final int payload, final int length)
    {
        final byte type = map.getByte(payload + RecordHeaderDecoder.typeEncodingOffset());
        if ((type != RecordType.WIN_NOTICE.value() && type != RecordType.LOSS_NOTICE.value()) || length < NOTICE_LENGTH)
        {
            return;
        }
        final int campaignAt = type == RecordType.WIN_NOTICE.value() ?
            WinRecordDecoder.campaignIdEncodingOffset() : LossRecordDecoder.campaignIdEncodingOffset();
        final long millis = map.getLong(payload + RecordHeaderDecoder.epochMillisEncodingOffset(), JournalFormat.ORDER);
        if (millis >= bucketEndMillis)
        {
            final long at = Math.floorDiv(millis, bucketMillis);
            if (at > bucket)
            {
                advanceTo(at);
            }
        }
        final int shard = router.shardOf(map.getLong(payload + campaignAt, JournalFormat.ORDER));
        buckets[shard][slot]++;
        if (++inWindow[shard] > most[shard])
        {
            most[shard] = inWindow[shard];
        }
    }

    /** Moves the current bucket on to {@code at} (later), emptying the buckets that fall out of the window. */
    private void advanceTo(final long at)
    {
        final long gap = at - bucket;
        // the first bucket, a jump of a whole window or more, or one too far to subtract: all of them
        final long passed = bucket == Long.MIN_VALUE || gap < 0 || gap >= span ? span : gap;
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
        slot = (int)Math.floorMod(at, (long)span);
        bucketEndMillis = at >= Long.MAX_VALUE / bucketMillis ? Long.MAX_VALUE : (at + 1) * bucketMillis;
    }
}
