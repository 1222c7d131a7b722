package io.pacer.pipeline.journal;

import org.agrona.concurrent.UnsafeBuffer;

import java.nio.ByteBuffer;

/**
 * The buffers a {@link SegmentChecker} reads a segment into and hands, checked, to the
 * {@link JournalReader} that applies the records: a ring of {@link #SLOTS} chunks, each a run of a
 * segment's bytes from a record's start, with where the checked records in it end. One writer (the
 * checker's thread) and one reader; the checker publishes and the reader releases each chunk
 * through the checker's sequence counters, which order these arrays' writes and reads. Made once
 * per reader and reused for each segment in turn.
 */
final class CheckedChunks
{
    /** Chunks in the ring: the checker runs at most this many ahead of the reader. */
    static final int SLOTS = 4;

    private final ByteBuffer[] buffers = new ByteBuffer[SLOTS];
    private final UnsafeBuffer[] views = new UnsafeBuffer[SLOTS];
    private final long[] startsAt = new long[SLOTS];
    private final long[] checkedTo = new long[SLOTS];

    /** @param chunkBytes each chunk's size: the longest record or more */
    CheckedChunks(final int chunkBytes)
    {
        for (int i = 0; i < SLOTS; i++)
        {
            buffers[i] = ByteBuffer.allocateDirect(chunkBytes).order(JournalFormat.ORDER);
            views[i] = new UnsafeBuffer(buffers[i]);
        }
    }

    /** The slot of the {@code n}th chunk of a segment (from 0). */
    static int slot(final long n)
    {
        return (int)(n & (SLOTS - 1));
    }

    /** Slot {@code slot}'s buffer, for the checker to read into (its position and limit are the checker's). */
    ByteBuffer buffer(final int slot)
    {
        return buffers[slot];
    }

    /** Slot {@code slot}'s bytes, for the codecs: offset 0 is the segment's byte {@link #startsAt}. */
    UnsafeBuffer view(final int slot)
    {
        return views[slot];
    }

    /** Records that slot {@code slot} holds the segment from {@code startsAt}, its records checked up to {@code checkedTo}. */
    void hold(final int slot, final long startsAt, final long checkedTo)
    {
        this.startsAt[slot] = startsAt;
        this.checkedTo[slot] = checkedTo;
    }

    long startsAt(final int slot)
    {
        return startsAt[slot];
    }

    long checkedTo(final int slot)
    {
        return checkedTo[slot];
    }
}
