package io.pacer.cluster;

import org.agrona.DirectBuffer;
import org.agrona.MutableDirectBuffer;

import java.io.DataInput;
import java.io.DataOutput;
import java.io.IOException;

/**
 * The answers a service gave one origin node's last {@link #CAPACITY} batches: what makes a
 * resent batch idempotent. A batch at or below {@link #lastSeq()} was decided already; it is
 * answered again from here, never decided twice. It is replicated state (every member computes
 * it from the log) and part of every snapshot.
 * <p>
 * A node keeps at most {@link #CAPACITY} batches in flight, so a resend always finds its answers.
 */
final class AnswerWindow
{
    /** Batches remembered per origin; a node never has more in flight. */
    static final int CAPACITY = 256;
    private static final int MASK = CAPACITY - 1;

    private long lastSeq;
    private final long[] seqs = new long[CAPACITY];
    private final byte[][] reasons = new byte[CAPACITY][];
    private final int[] lengths = new int[CAPACITY];

    AnswerWindow()
    {
        for (int i = 0; i < CAPACITY; i++)
        {
            reasons[i] = new byte[64];
        }
    }

    /** The highest batch decided for this origin; 0 before its first. */
    long lastSeq()
    {
        return lastSeq;
    }

    /** Records batch {@code seq}'s {@code count} reason bytes from {@code from}. */
    void record(final long seq, final DirectBuffer from, final int count)
    {
        final int slot = (int)seq & MASK;
        if (reasons[slot].length < count)
        {
            reasons[slot] = new byte[Math.max(count, reasons[slot].length * 2)];
        }
        from.getBytes(0, reasons[slot], 0, count);
        lengths[slot] = count;
        seqs[slot] = seq;
        lastSeq = Math.max(lastSeq, seq);
    }

    /**
     * Copies batch {@code seq}'s reasons into {@code to}.
     *
     * @return how many, or -1 if the batch is older than the window
     */
    int copy(final long seq, final MutableDirectBuffer to)
    {
        final int slot = (int)seq & MASK;
        if (seqs[slot] != seq)
        {
            return -1;
        }
        to.putBytes(0, reasons[slot], 0, lengths[slot]);
        return lengths[slot];
    }

    void writeTo(final DataOutput out) throws IOException
    {
        out.writeLong(lastSeq);
        for (int i = 0; i < CAPACITY; i++)
        {
            out.writeLong(seqs[i]);
            out.writeInt(lengths[i]);
            out.write(reasons[i], 0, lengths[i]);
        }
    }

    void readFrom(final DataInput in) throws IOException
    {
        lastSeq = in.readLong();
        for (int i = 0; i < CAPACITY; i++)
        {
            seqs[i] = in.readLong();
            lengths[i] = in.readInt();
            if (reasons[i].length < lengths[i])
            {
                reasons[i] = new byte[lengths[i]];
            }
            in.readFully(reasons[i], 0, lengths[i]);
        }
    }
}
