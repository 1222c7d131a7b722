package io.pacer.server.gateway;

import io.netty.buffer.ByteBuf;
import io.netty.channel.Channel;
import io.netty.channel.ChannelHandlerContext;
import io.pacer.wire.FrameEncoder;
import io.pacer.wire.Sofh;
import io.pacer.monitoring.SingleWriterCounters;
import io.pacer.pipeline.Responder;
import io.pacer.wire.BidResponseEncoder;
import io.pacer.wire.Decision;
import io.pacer.wire.Reason;
import org.agrona.concurrent.OneToOneConcurrentArrayQueue;
import org.agrona.concurrent.UnsafeBuffer;

import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * The ring's {@link Responder} for one gateway connection. On the replier thread it encodes the
 * answers of one ring batch into one buffer and hands it to the connection's event loop; there
 * one reusable task writes every batch handed off and flushes once, so a batch costs no task
 * object and wakes the event loop at most once while it is busy.
 */
final class AnswerWriter implements Responder
{
    private final GatewayStats stats;
    private final ChannelHandlerContext ctx;
    private final Channel channel;
    /** After answers were written and flushed on the event loop: the slow-reader limit check. */
    private final Runnable afterWrite;
    /** On the event loop, once every answer owed before the end of stream is written. */
    private final Runnable closeGracefully;

    // replier side
    private final FrameEncoder encoder = new FrameEncoder();
    private final UnsafeBuffer scratch = new UnsafeBuffer(new byte[FrameEncoder.BID_RESPONSE_LENGTH]);
    private ByteBuf pending;
    private SingleWriterCounters replierCounters;

    // replier to event loop
    /** Made on the first hand-off: with shared threading most connections never hand off. */
    private volatile OneToOneConcurrentArrayQueue<ByteBuf> handOff;
    private final AtomicBoolean writeScheduled = new AtomicBoolean();
    private final Runnable writeHandedOff = this::writeHandedOff;

    /** Bound to the connection's context, before anything is published for it. */
    AnswerWriter(final GatewayStats stats, final ChannelHandlerContext ctx, final Runnable afterWrite,
        final Runnable closeGracefully)
    {
        this.stats = stats;
        this.ctx = ctx;
        this.channel = ctx.channel();
        this.afterWrite = afterWrite;
        this.closeGracefully = closeGracefully;
    }

    @Override
    public boolean append(final long requestId, final Reason reason)
    {
        final boolean first = pending == null;
        if (first)
        {
            pending = channel.alloc().directBuffer(FrameEncoder.BID_RESPONSE_LENGTH * 16);
        }
        encoder.bidResponse(scratch, 0, requestId, reason);
        pending.writeBytes(scratch.byteArray(), 0, FrameEncoder.BID_RESPONSE_LENGTH);
        return first;
    }

    @Override
    public void withdrawBids()
    {
        final ByteBuf batch = pending;
        if (batch == null)
        {
            return;
        }
        for (int frame = batch.readerIndex(); frame < batch.writerIndex(); frame += FrameEncoder.BID_RESPONSE_LENGTH)
        {
            final int decision = frame + Sofh.FRAME_HEADER_LENGTH + BidResponseEncoder.decisionEncodingOffset();
            if (batch.getByte(decision) == Decision.BID.value())
            {
                batch.setByte(decision, Decision.NO_BID.value());
                batch.setByte(frame + Sofh.FRAME_HEADER_LENGTH + BidResponseEncoder.reasonEncodingOffset(),
                    Reason.OVERLOADED.value());
            }
        }
    }

    @Override
    public void flush()
    {
        final ByteBuf batch = pending;
        pending = null;
        if (batch == null)
        {
            return;
        }
        if (replierCounters == null)
        {
            // the replier is one thread: look its counters up once, not per batch
            replierCounters = stats.forCurrentThread();
        }
        replierCounters.add(GatewayStats.BYTES_OUT, batch.readableBytes());
        if (channel.eventLoop().inEventLoop() && (handOff == null || handOff.isEmpty()))
        {
            // shared threading: the loop that reads this connection decided the batch; no hand-off
            if (channel.isActive())
            {
                ctx.write(batch, ctx.voidPromise());
                ctx.flush();
                afterWrite.run();
            }
            else
            {
                batch.release();
            }
            return;
        }
        if (handOff == null)
        {
            handOff = new OneToOneConcurrentArrayQueue<>(1024);
        }
        if (!handOff.offer(batch))
        {
            // a connection so slow that 1,024 batches wait: fall back to Netty's own queueing
            channel.writeAndFlush(batch, channel.voidPromise());
            return;
        }
        if (!writeScheduled.getAndSet(true))
        {
            try
            {
                channel.eventLoop().execute(writeHandedOff);
            }
            catch (final RejectedExecutionException shutDown)
            {
                for (ByteBuf b; (b = handOff.poll()) != null; )
                {
                    b.release();
                }
            }
        }
    }

    /** On the event loop: writes every batch handed off (or drops them if closed), flushes once. */
    void writeHandedOff()
    {
        writeScheduled.set(false);
        final OneToOneConcurrentArrayQueue<ByteBuf> handOff = this.handOff;
        if (handOff == null)
        {
            return;
        }
        ByteBuf batch;
        boolean wrote = false;
        while ((batch = handOff.poll()) != null)
        {
            if (channel.isActive())
            {
                ctx.write(batch, ctx.voidPromise());
                wrote = true;
            }
            else
            {
                batch.release();
            }
        }
        if (wrote)
        {
            ctx.flush();
            afterWrite.run();
        }
    }

    @Override
    public void endOfStream()
    {
        // runs on the event loop after every batch handed off before it
        channel.eventLoop().execute(closeGracefully);
    }
}
