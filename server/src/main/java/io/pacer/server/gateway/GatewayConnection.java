package io.pacer.server.gateway;

import io.netty.buffer.ByteBuf;
import io.netty.channel.Channel;
import io.netty.channel.ChannelHandlerContext;
import io.netty.handler.codec.ByteToMessageDecoder;
import io.netty.handler.timeout.IdleStateEvent;
import io.pacer.model.wire.FrameEncoder;
import io.pacer.model.wire.FrameListener;
import io.pacer.loadtest.FrameReader;
import io.pacer.model.wire.FrameParser;
import io.pacer.monitoring.SingleWriterCounters;
import io.pacer.pipeline.PacerPipeline;
import io.pacer.pipeline.Responder;
import io.pacer.wire.ErrorCode;
import io.pacer.wire.Reason;
import org.agrona.concurrent.OneToOneConcurrentArrayQueue;
import org.agrona.concurrent.UnsafeBuffer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.List;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * One gateway connection, in two roles kept on two threads:
 * <ul>
 *   <li>on its Netty event loop, it decodes frames straight from the receive buffer (no object
 *       per frame) and publishes them into the ring; protocol errors and OVERLOADED answers are
 *       written from here, flushed once per read;</li>
 *   <li>as the ring's {@link Responder}, on the replier thread, it gathers the answers of one
 *       ring batch into one buffer and hands it to Netty with one write-and-flush.</li>
 * </ul>
 */
public final class GatewayConnection extends ByteToMessageDecoder implements Responder, FrameListener
{
    private static final Logger LOG = LoggerFactory.getLogger(GatewayConnection.class);

    private final PacerPipeline pipeline;
    private final GatewayStats stats;
    private final FrameReader reader;

    // event-loop side
    private final FrameEncoder loopEncoder = new FrameEncoder();
    private final UnsafeBuffer loopScratch = new UnsafeBuffer(new byte[64]);
    private ChannelHandlerContext ctx;
    private SingleWriterCounters loopCounters;
    private boolean wroteOnLoop;
    private boolean framingLost;

    // replier side
    private final FrameEncoder replyEncoder = new FrameEncoder();
    private final UnsafeBuffer replyScratch = new UnsafeBuffer(new byte[FrameEncoder.BID_RESPONSE_LENGTH]);
    private Channel channel;
    private ByteBuf pendingReplies;
    private SingleWriterCounters replyCounters;

    // replier to event loop: batches queue here and one reusable task writes them all, so a
    // batch costs no task object and wakes the event loop at most once while it is busy
    private final OneToOneConcurrentArrayQueue<ByteBuf> handOff = new OneToOneConcurrentArrayQueue<>(1024);
    private final AtomicBoolean writeScheduled = new AtomicBoolean();
    private final Runnable writeHandedOff = this::writeHandedOff;

    public GatewayConnection(final PacerPipeline pipeline, final GatewayStats stats, final int maxFrameBytes)
    {
        this.pipeline = pipeline;
        this.stats = stats;
        this.reader = new FrameReader(maxFrameBytes);
    }

    @Override
    public void handlerAdded(final ChannelHandlerContext ctx)
    {
        this.ctx = ctx;
        this.channel = ctx.channel();
        this.loopCounters = stats.forCurrentThread();
    }

    @Override
    public void channelActive(final ChannelHandlerContext ctx) throws Exception
    {
        stats.connectionOpened();
        super.channelActive(ctx);
    }

    @Override
    public void channelInactive(final ChannelHandlerContext ctx) throws Exception
    {
        stats.connectionClosed();
        writeHandedOff();
        super.channelInactive(ctx);
    }

    @Override
    protected void decode(final ChannelHandlerContext ctx, final ByteBuf in, final List<Object> out)
    {
        if (framingLost)
        {
            in.skipBytes(in.readableBytes());
            return;
        }
        loopCounters.add(GatewayStats.BYTES_IN, in.readableBytes());
        if (reader.read(in, this) == FrameParser.FRAMING_LOST)
        {
            // answer what was accepted before the bad frame, then close (through the ring)
            framingLost = true;
            in.skipBytes(in.readableBytes());
            flushLoopWrites();
            closeAfterAnswers(ctx);
        }
    }

    /** Stops reading; the connection closes through the ring, after every answer already owed. */
    private void closeAfterAnswers(final ChannelHandlerContext ctx)
    {
        ctx.channel().config().setAutoRead(false);
        pipeline.publishEndOfStream(this);
    }

    @Override
    public void channelReadComplete(final ChannelHandlerContext ctx) throws Exception
    {
        flushLoopWrites();
        super.channelReadComplete(ctx);
    }

    @Override
    public void userEventTriggered(final ChannelHandlerContext ctx, final Object event) throws Exception
    {
        if (event instanceof IdleStateEvent)
        {
            stats.idleClosed();
            // through the ring, so answers to anything still in flight go out first
            closeAfterAnswers(ctx);
            return;
        }
        super.userEventTriggered(ctx, event);
    }

    @Override
    public void exceptionCaught(final ChannelHandlerContext ctx, final Throwable cause)
    {
        LOG.debug("gateway connection {} failed; closing", ctx.channel().remoteAddress(), cause);
        ctx.close();
    }

    // ---- FrameListener: called on the event loop, from decode ----

    @Override
    public void onBidRequest(final long requestId, final long campaignId, final long bidCpmMicros)
    {
        loopCounters.increment(GatewayStats.BID_REQUESTS);
        if (!pipeline.tryPublishBid(requestId, campaignId, bidCpmMicros, this))
        {
            loopCounters.increment(GatewayStats.SHED);
            final int length = loopEncoder.bidResponse(loopScratch, 0, requestId, Reason.OVERLOADED);
            writeOnLoop(length);
        }
    }

    @Override
    public void onWinNotice(final long requestId, final long campaignId, final long priceCpmMicros)
    {
        loopCounters.increment(GatewayStats.WIN_NOTICES);
        pipeline.publishNotice(true, requestId, campaignId, priceCpmMicros);
    }

    @Override
    public void onLossNotice(final long requestId, final long campaignId)
    {
        loopCounters.increment(GatewayStats.LOSS_NOTICES);
        pipeline.publishNotice(false, requestId, campaignId, 0);
    }

    @Override
    public void onInvalidFrame(final ErrorCode code, final long requestId, final int templateId)
    {
        loopCounters.increment(GatewayStats.errorIndex(code));
        final int length = loopEncoder.error(loopScratch, 0, requestId, code, templateId);
        writeOnLoop(length);
    }

    private void writeOnLoop(final int length)
    {
        final ByteBuf buf = ctx.alloc().directBuffer(length);
        buf.writeBytes(loopScratch.byteArray(), 0, length);
        loopCounters.add(GatewayStats.BYTES_OUT, length);
        ctx.write(buf, ctx.voidPromise());
        wroteOnLoop = true;
    }

    private void flushLoopWrites()
    {
        if (wroteOnLoop)
        {
            wroteOnLoop = false;
            ctx.flush();
        }
    }

    // ---- Responder: called on the replier thread ----

    @Override
    public boolean append(final long requestId, final Reason reason)
    {
        final boolean first = pendingReplies == null;
        if (first)
        {
            pendingReplies = channel.alloc().directBuffer(FrameEncoder.BID_RESPONSE_LENGTH * 16);
        }
        replyEncoder.bidResponse(replyScratch, 0, requestId, reason);
        pendingReplies.writeBytes(replyScratch.byteArray(), 0, FrameEncoder.BID_RESPONSE_LENGTH);
        return first;
    }

    @Override
    public void flush()
    {
        final ByteBuf batch = pendingReplies;
        pendingReplies = null;
        if (batch == null)
        {
            return;
        }
        if (replyCounters == null)
        {
            // the replier is one thread: look its counters up once, not per batch
            replyCounters = stats.forCurrentThread();
        }
        replyCounters.add(GatewayStats.BYTES_OUT, batch.readableBytes());
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

    /** On the event loop: writes every batch handed off, flushes once. */
    private void writeHandedOff()
    {
        writeScheduled.set(false);
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
        }
    }

    @Override
    public void endOfStream()
    {
        // runs on the event loop after every batch handed off before it
        channel.eventLoop().execute(() ->
        {
            writeHandedOff();
            ctx.close();
        });
    }
}
