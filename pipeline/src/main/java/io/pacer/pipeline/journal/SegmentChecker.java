package io.pacer.pipeline.journal;

import io.pacer.pipeline.PacerThreads;
import org.agrona.concurrent.BackoffIdleStrategy;
import org.agrona.concurrent.IdleStrategy;

import java.nio.ByteBuffer;
import java.util.zip.CRC32C;

/**
 * Checks the framing and CRC of one mapped segment's records on a thread of its own, ahead of the
 * {@link JournalReader} that applies them: the reader asks how far the records are known good
 * and checks nothing itself before that point. The checker stops at the first record it cannot
 * pass; the reader reaches it, checks it itself and decides whether it is the torn tail or
 * corruption, so records are still handed over one by one, in order, and a bad one exactly as
 * before. CRC32C over the records was a tenth of a replay's time on its one thread.
 */
final class SegmentChecker implements Runnable
{
    /** How many records pass between two publications of {@link #checkedTo}. */
    private static final int PUBLISH_EVERY = 256;

    private final ByteBuffer view;
    private final long size;
    private final int start;
    private final Thread thread;
    /** Every record before this offset is whole and its CRC matches. */
    private volatile long checkedTo;
    private volatile boolean done;
    private volatile boolean stop;

    /**
     * Starts checking {@code map}'s records from {@code start}, its first record, to {@code size}.
     *
     * @param name the thread's name
     */
    SegmentChecker(final ByteBuffer map, final int start, final long size, final String name)
    {
        this.view = map.duplicate().order(JournalFormat.ORDER);
        this.start = start;
        this.size = size;
        this.checkedTo = start;
        this.thread = PacerThreads.thread(name, this);
        thread.start();
    }

    @Override
    public void run()
    {
        final CRC32C crc = new CRC32C();
        final ByteBuffer frame = view.duplicate().order(JournalFormat.ORDER);
        int position = start;
        int records = 0;
        try
        {
            while (!stop && position < size && problem(view, position, size, frame, crc) == null)
            {
                position += JournalFormat.RECORD_HEADER_LENGTH + view.getInt(position);
                if (++records == PUBLISH_EVERY)
                {
                    records = 0;
                    checkedTo = position;
                }
            }
            checkedTo = position;
        }
        finally
        {
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
     * @param frame a view of the same segment whose limit and position this moves
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
