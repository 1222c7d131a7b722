package io.pacer.pipeline.journal;

import io.pacer.pipeline.PacerThreads;
import org.agrona.concurrent.BackoffIdleStrategy;
import org.agrona.concurrent.IdleStrategy;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.concurrent.locks.LockSupport;
import java.util.zip.CRC32C;

/**
 * Reads one segment and checks its records' framing and CRC on a thread of its own, ahead of the
 * {@link JournalReader} that applies them, and hands them over in chunks ({@link CheckedChunks}):
 * the reader decodes each chunk's checked records where the checker read them, and checks nothing
 * itself there. The checker stops at the first record it cannot pass; the reader reaches it,
 * checks it itself and decides whether it is the torn tail or corruption, so records are still
 * handed over one by one, in order, and a bad one exactly as before. CRC32C over the records was a
 * tenth of a replay's time on its one thread; reading the segment once, here, spares the reader's
 * thread a copy of its own (~5% of a replay).
 */
final class SegmentChecker implements Runnable
{
    private final Path file;
    private final long size;
    private final int start;
    private final CheckedChunks chunks;
    private final Thread thread;
    /** Chunks handed over: the reader may read chunk n once this is past n. */
    private volatile long published;
    /** Chunks the reader is done with: the checker may fill chunk n again once this is past n - SLOTS. */
    private volatile long released;
    private volatile boolean done;
    private volatile boolean stop;

    /**
     * Starts checking {@code file}'s records from {@code start}, its first record, to {@code size},
     * reading it into {@code chunks}, which no other checker uses until {@link #close} returns.
     *
     * @param name the thread's name
     */
    SegmentChecker(final Path file, final int start, final long size, final CheckedChunks chunks, final String name)
    {
        this.file = file;
        this.start = start;
        this.size = size;
        this.chunks = chunks;
        this.thread = PacerThreads.thread(name, this);
        thread.start();
    }

    @Override
    public void run()
    {
        long position = start;
        try (FileChannel channel = FileChannel.open(file, StandardOpenOption.READ))
        {
            final CRC32C crc = new CRC32C();
            for (long n = 0; !stop && position < size; n++)
            {
                // every chunk held by the reader: it wakes this thread as it releases one
                while (n - released >= CheckedChunks.SLOTS)
                {
                    if (stop)
                    {
                        return;
                    }
                    LockSupport.park(this);
                }
                final int slot = CheckedChunks.slot(n);
                final ByteBuffer chunk = chunks.buffer(slot);
                final int bytes = ForwardReads.read(channel, chunk, position, size);
                final ByteBuffer frame = chunk.duplicate().order(JournalFormat.ORDER);
                long checked = position;
                int at = 0;
                boolean bad = false;
                // every whole record of the chunk; one that runs past its end begins the next chunk
                while (bytes - at >= JournalFormat.RECORD_HEADER_LENGTH)
                {
                    final int length = chunk.getInt(at);
                    if (!isFramed((int)checked, length, size))
                    {
                        bad = true;
                        break;
                    }
                    if (bytes - at - JournalFormat.RECORD_HEADER_LENGTH < length)
                    {
                        break;
                    }
                    if (!crcMatches(chunk, at, length, frame, crc))
                    {
                        bad = true;
                        break;
                    }
                    at += JournalFormat.RECORD_HEADER_LENGTH + length;
                    checked += JournalFormat.RECORD_HEADER_LENGTH + length;
                }
                if (checked == position)
                {
                    // not one record passed: the reader checks this one itself
                    return;
                }
                chunks.hold(slot, position, checked);
                published = n + 1;
                position = checked;
                if (bad)
                {
                    return;
                }
            }
        }
        catch (final IOException | RuntimeException ex)
        {
            // stops here: the reader reaches the first record not handed over, checks it itself and reports what it finds
        }
        finally
        {
            done = true;
        }
    }

    /**
     * Waits until the checker has handed over the {@code n}th chunk of the segment (from 0), which
     * starts where the one before it ended, or has stopped short of it.
     *
     * @return the chunk's slot in the {@link CheckedChunks}, or -1 if the checker stopped before it
     *         (the reader checks the next record itself)
     */
    int awaitChunk(final long n)
    {
        if (published > n)
        {
            return CheckedChunks.slot(n);
        }
        final IdleStrategy idle = new BackoffIdleStrategy();
        while (published <= n && !done)
        {
            idle.idle();
        }
        return published > n ? CheckedChunks.slot(n) : -1;
    }

    /** The reader is done with the segment's first {@code n} chunks: their slots may be filled again. */
    void release(final long n)
    {
        released = n;
        LockSupport.unpark(thread);
    }

    /**
     * Stops the checker and waits for its thread to end, interrupted or not: the next segment's
     * checker takes the same chunks only once this one can no longer write to them.
     */
    void close()
    {
        stop = true;
        LockSupport.unpark(thread);
        PacerThreads.joinUninterruptibly(thread);
    }

    /**
     * Null if the record at {@code position} of {@code map} is whole and its CRC matches, else the
     * problem.
     *
     * @param map   the segment, or a buffer holding part of it
     * @param size  where the segment ends, as an offset in {@code map}
     * @param frame a view of the same buffer whose limit and position this moves
     */
    static String problem(final ByteBuffer map, final int position, final long size, final ByteBuffer frame,
        final CRC32C crc)
    {
        final String framing = framingProblem(map, position, size);
        if (framing != null)
        {
            return framing;
        }
        return crcMatches(map, position, map.getInt(position), frame, crc) ? null : "CRC mismatch";
    }

    /**
     * Whether the CRC of the record at {@code position} of {@code map}, framed whole with a payload
     * of {@code length} bytes, matches its payload.
     *
     * @param frame a view of the same buffer whose limit and position this moves
     */
    private static boolean crcMatches(final ByteBuffer map, final int position, final int length, final ByteBuffer frame,
        final CRC32C crc)
    {
        final int payload = position + JournalFormat.RECORD_HEADER_LENGTH;
        crc.reset();
        frame.limit(payload + length).position(payload);
        crc.update(frame);
        frame.limit(frame.capacity());
        return (int)crc.getValue() == map.getInt(position + 4);
    }

    /** Null if the record at {@code position} of {@code map} is framed whole (its CRC not checked), else the problem. */
    static String framingProblem(final ByteBuffer map, final int position, final long size)
    {
        if (size - position < JournalFormat.RECORD_HEADER_LENGTH)
        {
            return "record header cut short";
        }
        final int length = map.getInt(position);
        if (isFramed(position, length, size))
        {
            return null;
        }
        return length < JournalFormat.PAYLOAD_HEADER_LENGTH || length > JournalFormat.MAX_PAYLOAD ?
            "impossible record length " + length : "record cut short (" + length + " bytes expected)";
    }

    /**
     * Whether the record at {@code position}, whose header (there, whole) gives its payload
     * {@code length}, is framed whole in a segment of {@code size} bytes: the test
     * {@link #framingProblem} words, for a walk that only needs to know where to stop.
     */
    static boolean isFramed(final int position, final int length, final long size)
    {
        return length >= JournalFormat.PAYLOAD_HEADER_LENGTH && length <= JournalFormat.MAX_PAYLOAD &&
            size - position - JournalFormat.RECORD_HEADER_LENGTH >= length;
    }
}
