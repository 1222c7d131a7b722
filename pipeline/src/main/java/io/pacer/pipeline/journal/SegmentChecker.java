package io.pacer.pipeline.journal;

import io.pacer.pipeline.PacerThreads;
import org.agrona.concurrent.BackoffIdleStrategy;
import org.agrona.concurrent.IdleStrategy;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.zip.CRC32C;

/**
 * Checks the framing and CRC of one segment's records on a thread of its own, ahead of the
 * {@link JournalReader} that applies them: the reader asks how far the records are known good
 * and checks nothing itself before that point. The checker stops at the first record it cannot
 * pass; the reader reaches it, checks it itself and decides whether it is the torn tail or
 * corruption, so records are still handed over one by one, in order, and a bad one exactly as
 * before. CRC32C over the records was a tenth of a replay's time on its one thread. It reads the
 * segment through a buffer of its own ({@link ForwardReads}), as the reader does.
 */
final class SegmentChecker implements Runnable
{
    /** How many records pass between two publications of {@link #checkedTo}. */
    private static final int PUBLISH_EVERY = 256;

    private final Path file;
    private final long size;
    private final int start;
    private final ForwardReads reads;
    private final Thread thread;
    /** Every record before this offset is whole and its CRC matches. */
    private volatile long checkedTo;
    private volatile boolean done;
    private volatile boolean stop;

    /**
     * Starts checking {@code file}'s records from {@code start}, its first record, to {@code size},
     * reading it through {@code reads} (which holds a whole record or more), which no other thread
     * uses until {@link #close} returns.
     *
     * @param name the thread's name
     */
    SegmentChecker(final Path file, final int start, final long size, final ForwardReads reads, final String name)
    {
        this.file = file;
        this.start = start;
        this.size = size;
        this.reads = reads;
        this.checkedTo = start;
        this.thread = PacerThreads.thread(name, this);
        thread.start();
    }

    @Override
    public void run()
    {
        int position = start;
        try (FileChannel channel = FileChannel.open(file, StandardOpenOption.READ))
        {
            final CRC32C crc = new CRC32C();
            reads.open(channel, size);
            final ByteBuffer chunk = reads.view();
            final ByteBuffer frame = reads.view();
            int records = 0;
            while (!stop && size - position >= JournalFormat.RECORD_HEADER_LENGTH)
            {
                final int length = chunk.getInt(reads.at(position, JournalFormat.RECORD_HEADER_LENGTH));
                if (!isFramed(position, length, size))
                {
                    break;
                }
                final int at = reads.at(position, JournalFormat.RECORD_HEADER_LENGTH + length);
                // the segment's size as an offset in the buffer, which holds the record whole
                if (problem(chunk, at, size - position + at, frame, crc) != null)
                {
                    break;
                }
                position += JournalFormat.RECORD_HEADER_LENGTH + length;
                if (++records == PUBLISH_EVERY)
                {
                    records = 0;
                    checkedTo = position;
                }
            }
        }
        catch (final IOException | RuntimeException ex)
        {
            // stops here: the reader reaches this record, checks it itself and reports what it finds
        }
        finally
        {
            checkedTo = position;
            done = true;
        }
    }

    /**
     * Waits until the checker has passed {@code position} or stopped short of it.
     *
     * @return the offset before which every record is known good (at or before {@code position}
     *         if the checker stopped there: the reader checks that record itself)
     */
    long awaitPast(final int position)
    {
        final long checked = checkedTo;
        if (checked > position)
        {
            return checked;
        }
        final IdleStrategy idle = new BackoffIdleStrategy();
        while (checkedTo <= position && !done)
        {
            idle.idle();
        }
        return checkedTo;
    }

    /** Stops the checker and waits for its thread to end. */
    void close()
    {
        stop = true;
        try
        {
            thread.join();
        }
        catch (final InterruptedException ex)
        {
            Thread.currentThread().interrupt();
        }
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
        final int length = map.getInt(position);
        final int payload = position + JournalFormat.RECORD_HEADER_LENGTH;
        crc.reset();
        frame.limit(payload + length).position(payload);
        crc.update(frame);
        frame.limit(frame.capacity());
        return (int)crc.getValue() == map.getInt(position + 4) ? null : "CRC mismatch";
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
