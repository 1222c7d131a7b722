package io.pacer.pipeline.journal;

import org.agrona.concurrent.UnsafeBuffer;

import java.io.EOFException;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;

/**
 * A file's bytes read forward in chunks into one direct buffer, reused from file to file: the
 * notice census walks the segments through one. A segment's checker reads into its
 * {@link CheckedChunks} the same way ({@link #read}).
 *
 * <p>Why not a mapping: the first touch of each page of a mapping costs the kernel a page-table
 * entry, and on a virtual machine like the one this was measured on that is most of the cost of a
 * pass. Walking a 256 MB segment through a fresh mapping took ~145 ms; reading the same segment
 * from the page cache into a 1 MB buffer took ~22 ms, and the buffer's own pages are touched once.
 * A replay's checkers took those page faults for the replay, on the core its compiler needs.
 */
final class ForwardReads
{
    private final ByteBuffer chunk;
    private final UnsafeBuffer bytes;
    private FileChannel channel;
    private long size;
    /** The file position of the buffer's first byte. */
    private long chunkAt;
    /** How many of the buffer's bytes were read. */
    private int limit;

    /** @param capacity the buffer's bytes: the most {@link #at} can be asked for at once */
    ForwardReads(final int capacity)
    {
        chunk = ByteBuffer.allocateDirect(capacity);
        bytes = new UnsafeBuffer(chunk);
    }

    /** Reads from {@code channel} from now on, up to {@code size} (the file may be longer). */
    void open(final FileChannel channel, final long size)
    {
        this.channel = channel;
        this.size = size;
        chunkAt = 0;
        limit = 0;
    }

    /** The buffer: {@link #at}'s offsets index it. */
    UnsafeBuffer bytes()
    {
        return bytes;
    }

    /**
     * Where the file's bytes from {@code position} lie in {@link #bytes}: the next {@code length}
     * of them (fewer where the file's size ends first) are there on return. Reading again where the
     * buffer does not hold them, it reads from {@code position}, so positions only ever go forward.
     *
     * @throws EOFException if the file ends before the size it was opened with
     * @throws IllegalArgumentException if {@code length} is more than the buffer holds
     */
    int at(final long position, final int length) throws IOException
    {
        final long offset = position - chunkAt;
        if (offset >= 0 && Math.min(size, position + length) - chunkAt <= limit)
        {
            return (int)offset;
        }
        fill(position, length);
        return 0;
    }

    private void fill(final long position, final int length) throws IOException
    {
        if (length > chunk.capacity())
        {
            throw new IllegalArgumentException(length + " bytes asked for at once, more than the " + chunk.capacity() + " held");
        }
        // nothing is held until the read is whole: a read that fails leaves no stale bytes to answer from
        limit = 0;
        limit = read(channel, chunk, position, size);
        chunkAt = position;
    }

    /**
     * Reads {@code channel} from {@code position} into {@code buffer}, from its start, as much as
     * it holds or the bytes up to {@code size} (the file may be longer).
     *
     * @return the bytes read
     * @throws EOFException if the file ends before {@code size}
     */
    static int read(final FileChannel channel, final ByteBuffer buffer, final long position, final long size) throws IOException
    {
        buffer.clear().limit((int)Math.min(buffer.capacity(), Math.max(0, size - position)));
        while (buffer.hasRemaining())
        {
            if (channel.read(buffer, position + buffer.position()) < 0)
            {
                throw new EOFException("file ends at " + (position + buffer.position()) + ", before " + size);
            }
        }
        return buffer.position();
    }
}
