package io.pacer.wire.netty;

import io.netty.buffer.ByteBuf;
import io.pacer.wire.FrameListener;
import io.pacer.wire.FrameParser;
import org.agrona.concurrent.UnsafeBuffer;

/**
 * Decodes protocol frames straight out of a Netty {@link ByteBuf}: an {@link UnsafeBuffer} view
 * over the buffer's memory (direct or heap), copied only if the buffer exposes neither. Shared by
 * the server's gateway connections and the load generator. One instance per connection.
 */
public final class FrameReader
{
    private final FrameParser parser;
    private final UnsafeBuffer view = new UnsafeBuffer(0, 0);
    private byte[] copy = new byte[0];

    public FrameReader(final int maxFrameBytes)
    {
        this.parser = new FrameParser(maxFrameBytes);
    }

    /**
     * Hands every whole frame in {@code in} to {@code listener} and skips past them.
     *
     * @return bytes consumed, or {@link FrameParser#FRAMING_LOST} (then {@code in} is left as is)
     */
    public int read(final ByteBuf in, final FrameListener listener)
    {
        final int readable = in.readableBytes();
        if (in.hasMemoryAddress())
        {
            view.wrap(in.memoryAddress() + in.readerIndex(), readable);
        }
        else if (in.hasArray())
        {
            view.wrap(in.array(), in.arrayOffset() + in.readerIndex(), readable);
        }
        else
        {
            if (copy.length < readable)
            {
                copy = new byte[Math.max(readable, copy.length * 2)];
            }
            in.getBytes(in.readerIndex(), copy, 0, readable);
            view.wrap(copy, 0, readable);
        }
        final int consumed = parser.parse(view, 0, readable, listener);
        if (consumed > 0)
        {
            in.skipBytes(consumed);
        }
        return consumed;
    }
}
