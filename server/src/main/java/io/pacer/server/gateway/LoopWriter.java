package io.pacer.server.gateway;

import io.netty.buffer.ByteBuf;
import io.netty.channel.ChannelHandlerContext;
import io.pacer.monitoring.SingleWriterCounters;
import io.pacer.wire.ErrorCode;
import io.pacer.wire.FrameEncoder;
import io.pacer.wire.Reason;
import org.agrona.concurrent.UnsafeBuffer;

/**
 * The answers a gateway connection writes on its own event loop, without the ring: OVERLOADED
 * for a bid that found the ring full, UNKNOWN_CAMPAIGN for a bid naming a campaign its gateway
 * may not name, and Error messages for frames that could not be taken.
 * Written as they arise, flushed once per read.
 */
final class LoopWriter
{
    private final FrameEncoder encoder = new FrameEncoder();
    private final UnsafeBuffer scratch = new UnsafeBuffer(new byte[64]);
    private final ChannelHandlerContext ctx;
    private final SingleWriterCounters counters;
    private boolean unflushed;

    LoopWriter(final ChannelHandlerContext ctx, final SingleWriterCounters counters)
    {
        this.ctx = ctx;
        this.counters = counters;
    }

    /** NO_BID with {@code reason}, decided here without the ring (OVERLOADED, UNKNOWN_CAMPAIGN). */
    void noBid(final long requestId, final Reason reason)
    {
        write(encoder.bidResponse(scratch, 0, requestId, reason));
    }

    void error(final long requestId, final ErrorCode code, final int templateId)
    {
        write(encoder.error(scratch, 0, requestId, code, templateId));
    }

    private void write(final int length)
    {
        final ByteBuf buf = ctx.alloc().directBuffer(length);
        buf.writeBytes(scratch.byteArray(), 0, length);
        counters.add(GatewayStats.BYTES_OUT, length);
        ctx.write(buf, ctx.voidPromise());
        unflushed = true;
    }

    /** Flushes what was written since the last flush; true if there was anything. */
    boolean flush()
    {
        if (!unflushed)
        {
            return false;
        }
        unflushed = false;
        ctx.flush();
        return true;
    }
}
