package io.pacer.pipeline.journal;

import io.pacer.model.ShardRouter;
import io.pacer.pipeline.PacerThreads;
import io.pacer.pipeline.journal.sbe.LossRecordDecoder;
import io.pacer.pipeline.journal.sbe.RecordHeaderDecoder;
import io.pacer.pipeline.journal.sbe.RecordType;
import io.pacer.pipeline.journal.sbe.WinRecordDecoder;
import org.agrona.concurrent.UnsafeBuffer;

import java.io.IOException;
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
 * <p>The census walks the records' framing only: no CRC (the segment checkers do that); each of
 * its threads reads the segments in turn through one buffer of its own ({@link ForwardReads}, not
 * a mapping), and it stops quietly at the first record it cannot read. Notices are counted
 * per shard in buckets of an eighth of the window, by the latest record time seen; the most any
 * run of buckets spanning a window has held is the estimate (at most a bucket's worth above the
 * true most). It counts every notice, duplicates and unknown campaigns too, and a shard's own time
 * may differ from the latest record time, so it is a hint, not a bound: a table sized by it answers
 * exactly as one that doubled.
 *
 * <p>It counts before the first record is handed over, the reader's thread the first half of the
 * segments and a {@code pacer-journal-census} thread the later half (a journal of one segment on
 * the reader's thread alone): ~0.12 s for 10M records, ~0.45
 * s for 52M. Counted alongside the replay on a thread of its own, as it once was, it cost the
 * replay more than its own time: the replay's first growths came before the count was whole, and
 * the counting thread took the core the compiler needed while the replay loop still ran
 * uncompiled.
 */
public final class NoticeCensus
{
    /**
     * How many windows' worth of buckets the later half of a split census keeps from its start: one
     * for the windows that straddle the split, one more for notices stamped up to a window earlier
     * than the first half's last.
     */
    private static final int HEAD_WINDOWS = 2;
    /** A notice's record must reach this far into its payload: the campaign id's end. */
    private static final int NOTICE_LENGTH = Math.max(WinRecordDecoder.campaignIdEncodingOffset(),
        LossRecordDecoder.campaignIdEncodingOffset()) + Long.BYTES;
    /** What the census reads of a record at most: its header and a notice's payload up to the campaign id. */
    static final int RECORD_READ = JournalFormat.RECORD_HEADER_LENGTH + NOTICE_LENGTH;
    /** The bytes each census reads a segment by. */
    static final int CHUNK_BYTES = 1 << 20;

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
    /** The bucket of the first notice counted (Long.MIN_VALUE before it). */
    private long firstBucket = Long.MIN_VALUE;
    /**
     * Per shard, the notices counted in each of the {@link #HEAD_WINDOWS} windows' worth of buckets
     * from {@link #firstBucket}: what {@link #append} needs of the later half of a split census.
     */
    private final int[][] head;
    private final int chunkBytes;

    private NoticeCensus(final int shards, final long windowMillis, final int chunkBytes)
    {
        this.chunkBytes = chunkBytes;
        this.router = new ShardRouter(shards);
        this.bucketMillis = Math.max(1, windowMillis / 8);
        this.span = windowMillis <= 0 ? 0 :
            (int)(windowMillis / bucketMillis + (windowMillis % bucketMillis == 0 ? 0 : 1)) + 1;
        this.buckets = new int[shards][span];
        this.head = new int[shards][HEAD_WINDOWS * span];
        this.inWindow = new int[shards];
        this.most = new int[shards];
    }

    /**
     * Counts {@code segments}' notices, all recorded as {@code header} says: with two segments or
     * more, the later half (by size) on a thread of its own while the calling thread counts the
     * first, the two then joined ({@link #append}) to the estimate one pass would have made (or,
     * where the later half starts more than a window before the first half's last notice, the
     * later half counted again on the calling thread). With {@code split} false, every segment is
     * counted on the calling thread. Each census reads by {@code chunkBytes} (at least {@link
     * #RECORD_READ}).
     *
     * @return the census, or null if {@code header} cannot be counted for (no shard router for its shards)
     */
    static NoticeCensus count(final JournalHeader header, final List<Segment> segments, final boolean split, final int chunkBytes)
    {
        if (chunkBytes < RECORD_READ)
        {
            throw new IllegalArgumentException("a census reads by " + RECORD_READ + " bytes or more, not " + chunkBytes);
        }
        final NoticeCensus census = census(header, chunkBytes);
        if (census == null || census.span == 0)
        {
            return census;
        }
        final int at = split ? half(segments) : segments.size();
        if (at == segments.size())
        {
            census.count(segments);
            return census;
        }
        final NoticeCensus later = census(header, chunkBytes);
        final Thread helper = PacerThreads.thread("pacer-journal-census", () -> later.count(segments.subList(at, segments.size())));
        helper.start();
        final boolean whole;
        try
        {
            whole = census.count(segments.subList(0, at));
        }
        finally
        {
            PacerThreads.joinUninterruptibly(helper);
        }
        if (!whole)
        {
            // past a record it cannot read, one pass counts nothing more, and neither does this
            return census;
        }
        if (census.canAppend(later))
        {
            census.append(later);
        }
        else
        {
            // the later half starts more than a window before the first half ended (a clock set back
            // at the split): its head does not reach the windows that straddle, so count it again
            census.count(segments.subList(at, segments.size()));
        }
        return census;
    }

    private static NoticeCensus census(final JournalHeader header, final int chunkBytes)
    {
        try
        {
            return new NoticeCensus(header.shards(), header.policy().noticeDedupeWindowMillis(), chunkBytes);
        }
        catch (final IllegalArgumentException ex)
        {
            // shards that are no power of two: the reader reports the journal as it finds it
            return null;
        }
    }

    /** Where the later half of {@code segments} begins, by size: {@code segments.size()} if there are fewer than two. */
    private static int half(final List<Segment> segments)
    {
        if (segments.size() < 2)
        {
            return segments.size();
        }
        long total = 0;
        for (final Segment segment : segments)
        {
            total += segment.size();
        }
        long before = segments.get(0).size();
        int at = 1;
        while (at < segments.size() - 1 && 2 * (before + segments.get(at).size()) <= total)
        {
            before += segments.get(at++).size();
        }
        return at;
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

    /** @return whether every record of every segment could be read */
    private boolean count(final List<Segment> segments)
    {
        try
        {
            // made here, not kept: a census outlives its count (the replay keeps it), its buffer need not
            final ForwardReads reads = new ForwardReads(chunkBytes);
            for (final Segment segment : segments)
            {
                if (!count(segment, reads))
                {
                    return false;
                }
            }
            return true;
        }
        catch (final IOException | RuntimeException ex)
        {
            // a hint only: the reader finds and reports whatever is wrong with the journal
            return false;
        }
    }

    /** @return whether every record of the segment could be read */
    private boolean count(final Segment segment, final ForwardReads reads) throws IOException
    {
        try (FileChannel channel = FileChannel.open(segment.file(), StandardOpenOption.READ))
        {
            reads.open(channel, segment.size());
            final UnsafeBuffer records = reads.bytes();
            final long size = segment.size();
            int position = segment.recordsAt();
            while (position + JournalFormat.RECORD_HEADER_LENGTH <= size)
            {
                final int at = reads.at(position, RECORD_READ);
                final int length = records.getInt(at, JournalFormat.ORDER);
                if (!SegmentChecker.isFramed(position, length, size))
                {
                    return false;
                }
                count(records, at + JournalFormat.RECORD_HEADER_LENGTH, length);
                position += JournalFormat.RECORD_HEADER_LENGTH + length;
            }
            return true;
        }
    }

    /** Counts the record of {@code length} bytes whose payload is at {@code payload} if it is a notice. */
    private void count(final UnsafeBuffer records, final int payload, final int length)
    {
        final byte type = records.getByte(payload + RecordHeaderDecoder.typeEncodingOffset());
        if ((type != RecordType.WIN_NOTICE.value() && type != RecordType.LOSS_NOTICE.value()) || length < NOTICE_LENGTH)
        {
            return;
        }
        final int campaignAt = type == RecordType.WIN_NOTICE.value() ?
            WinRecordDecoder.campaignIdEncodingOffset() : LossRecordDecoder.campaignIdEncodingOffset();
        final long millis = records.getLong(payload + RecordHeaderDecoder.epochMillisEncodingOffset(), JournalFormat.ORDER);
        if (millis >= bucketEndMillis)
        {
            final long at = Math.floorDiv(millis, bucketMillis);
            if (at > bucket)
            {
                advanceTo(at);
            }
        }
        final int shard = router.shardOf(records.getLong(payload + campaignAt, JournalFormat.ORDER));
        buckets[shard][slot]++;
        final long sinceFirst = bucket - firstBucket;
        if (sinceFirst >= 0 && sinceFirst < head[shard].length)
        {
            head[shard][(int)sinceFirst]++;
        }
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
        if (bucket == Long.MIN_VALUE)
        {
            firstBucket = at;
        }
        bucket = at;
        slot = (int)Math.floorMod(at, (long)span);
        bucketEndMillis = at >= Long.MAX_VALUE / bucketMillis ? Long.MAX_VALUE : (at + 1) * bucketMillis;
    }

    /**
     * Whether {@link #append} can join {@code later} exactly: its head reaches every bucket a window
     * straddling the two can end in, and no sum there can overflow.
     */
    private boolean canAppend(final NoticeCensus later)
    {
        return later.firstBucket == Long.MIN_VALUE || firstBucket == Long.MIN_VALUE ||
            (later.firstBucket >= bucket - span && bucket <= Long.MAX_VALUE - 2L * span);
    }

    /**
     * Joins {@code later}, the census of the segments that follow this one's, into this one's
     * estimate, as if one pass had gone on through them: a window within either half is already in
     * its {@link #most}; a window straddling the two is summed here from this one's last buckets
     * and {@code later}'s first, a notice of {@code later}'s stamped before this one's last bucket
     * counting in that bucket (one pass counts by the latest time seen).
     */
    private void append(final NoticeCensus later)
    {
        if (later.firstBucket == Long.MIN_VALUE)
        {
            return;
        }
        if (firstBucket == Long.MIN_VALUE)
        {
            System.arraycopy(later.most, 0, most, 0, most.length);
            return;
        }
        final long last = bucket;
        for (int shard = 0; shard < most.length; shard++)
        {
            long straddling = 0;
            for (long end = last; end < last + span; end++)
            {
                long sum = 0;
                for (long b = end - span + 1; b <= last; b++)
                {
                    sum += buckets[shard][(int)Math.floorMod(b, (long)span)];
                }
                for (int k = 0; k < later.head[shard].length; k++)
                {
                    if (Math.max(later.firstBucket + k, last) <= end)
                    {
                        sum += later.head[shard][k];
                    }
                }
                straddling = Math.max(straddling, sum);
            }
            most[shard] = (int)Math.min(Integer.MAX_VALUE, Math.max(straddling, Math.max(most[shard], later.most[shard])));
        }
    }
}
