package io.pacer.server.gateway;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.Channel;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.ChannelOutboundBuffer;
import io.netty.channel.socket.DuplexChannel;
import io.netty.handler.codec.ByteToMessageDecoder;
import io.netty.handler.ssl.SslHandler;
import io.netty.handler.timeout.IdleStateEvent;
import io.netty.util.concurrent.ScheduledFuture;
import io.pacer.monitoring.SingleWriterCounters;
import io.pacer.pipeline.PacerPipeline;
import io.pacer.pipeline.Responder;
import io.pacer.server.config.GatewayConfig;
import io.pacer.wire.ErrorCode;
import io.pacer.wire.FrameEncoder;
import io.pacer.wire.FrameListener;
import io.pacer.wire.FrameParser;
import io.pacer.wire.Reason;
import io.pacer.wire.netty.FrameReader;
import org.agrona.concurrent.UnsafeBuffer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.concurrent.TimeUnit;

/**
 * One gateway connection, in two roles kept on two threads:
 * <ul>
 *   <li>on its Netty event loop, it decodes frames straight from the receive buffer (no object
 *       per frame) and publishes them into the ring; protocol errors and OVERLOADED answers are
 *       written from here, flushed once per read;</li>
 *   <li>its {@link AnswerWriter}, the ring's {@link Responder} for it, gathers the answers of one
 *       ring batch on the replier thread and hands them to this event loop in one piece.</li>
 * </ul>
 * The event loop never waits for the ring. A bid that finds it full is answered OVERLOADED; a
 * win or loss notice, which carries money and is never shed, is held, the connection stops
 * being read and the notice is retried every {@value #RING_RETRY_MICROS} microseconds; the
 * frames after it wait, unread, in order. A connection whose unwritten answers pass the
 * high-water mark stops being read until they drain below half of it; past the limit of
 * unwritten bytes, or past the slow-reader timeout, it is closed and counted.
 *
 * <p>Over 300 lines, still to split (issue #13): decoding and publishing, a held notice ({@link
 * HeldNotice}) and read pauses ({@link ReadPauses}) are already their own classes; slow-reader and
 * idle handling, and an explicit state enum in place of its booleans, are not yet.
 */
public final class GatewayConnection extends ChannelInboundHandlerAdapter implements FrameListener
{
    private static final Logger LOG = LoggerFactory.getLogger(GatewayConnection.class);
    private static final long RING_RETRY_MICROS = 100;

    /** Fired into each connection by {@link GatewayServer#stopIntake()}: read nothing more. */
    static final Object STOP_INTAKE = new Object();
    /** Fired into each connection by {@link GatewayServer#close()}, once the ring has drained. */
    static final Object CLOSE_GRACEFULLY = new Object();
    /** How long a closing connection waits for the gateway to close its side. */
    static final long LINGER_MILLIS = 2_000;

    private final PacerPipeline pipeline;
    private final GatewayStats stats;
    private final GatewayConfig settings;
    private final FrameReader reader;
    private final AnswerWriter answers;

    // event-loop side
    private final FrameEncoder loopEncoder = new FrameEncoder();
    private final UnsafeBuffer loopScratch = new UnsafeBuffer(new byte[64]);
    private final Runnable retryRing = this::retryRing;
    private final Runnable slowReaderCheck = this::slowReaderCheck;
    private ChannelHandlerContext ctx;
    private Channel channel;
    private SingleWriterCounters loopCounters;
    private ByteBuf cumulation;
    private boolean wroteOnLoop;
    private boolean framingLost;
    private boolean decoding;
    private long readEpochMillis;
    private long readNanos;
    private boolean closing;
    private boolean draining;
    private boolean endOfStreamOwed;
    private ReadPauses pauses;
    private boolean ringRetryScheduled;
    private ScheduledFuture<?> slowReaderTimer;
    private ScheduledFuture<?> lingerTimer;
    private final HeldNotice heldNotice = new HeldNotice();

    public GatewayConnection(final PacerPipeline pipeline, final GatewayStats stats, final GatewayConfig settings)
    {
        this.pipeline = pipeline;
        this.stats = stats;
        this.settings = settings;
        this.reader = new FrameReader(settings.maxFrameBytes());
        this.answers = new AnswerWriter(stats, this);
    }

    @Override
    public void handlerAdded(final ChannelHandlerContext ctx)
    {
        this.ctx = ctx;
        this.channel = ctx.channel();
        this.pauses = new ReadPauses(channel);
        this.loopCounters = stats.forCurrentThread();
        answers.attach(ctx);
    }

    @Override
    public void handlerRemoved(final ChannelHandlerContext ctx)
    {
        if (!heldNotice.isHeld())
        {
            releaseCumulation();
        }
        // else: the retry publishes the notice and the frames received behind it, then releases
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
        // a pending timer would keep this closed connection reachable, and copied by young GCs
        cancel(lingerTimer);
        cancel(slowReaderTimer);
        lingerTimer = null;
        slowReaderTimer = null;
        // frames already received still count: a notice in them carries money
        decodeCumulation();
        flushLoopWrites();
        answers.writeHandedOff();
        super.channelInactive(ctx);
    }

    @Override
    public void channelRead(final ChannelHandlerContext ctx, final Object msg)
    {
        final ByteBuf in = (ByteBuf)msg;
        if (framingLost || closing)
        {
            in.release();
            return;
        }
        loopCounters.add(GatewayStats.BYTES_IN, in.readableBytes());
        cumulation = cumulation == null ? in : ByteToMessageDecoder.MERGE_CUMULATOR.cumulate(ctx.alloc(), cumulation, in);
        decodeCumulation();
    }

    /** Decodes what has arrived, up to a held notice; the rest waits for the ring. */
    private void decodeCumulation()
    {
        if (cumulation == null || heldNotice.isHeld() || framingLost || decoding)
        {
            return;
        }
        // a shared pipeline may drain inside this decode (ring full): never decode within it
        decoding = true;
        // every frame of one read shares its ingress time: two clock reads per read, not per frame
        readEpochMillis = pipeline.clock().time();
        readNanos = System.nanoTime();
        final int consumed;
        try
        {
            consumed = reader.read(cumulation, this);
        }
        finally
        {
            decoding = false;
        }
        if (consumed == FrameParser.FRAMING_LOST)
        {
            // answer what was accepted before the bad frame, then close (through the ring)
            framingLost = true;
            releaseCumulation();
            flushLoopWrites();
            closeAfterAnswers();
            return;
        }
        if (!cumulation.isReadable())
        {
            releaseCumulation();
        }
        else
        {
            cumulation.discardSomeReadBytes();
        }
        // one wake per read, not per frame: a shared pipeline drains at the end of this loop pass
        pipeline.wake();
    }

    private static void cancel(final ScheduledFuture<?> timer)
    {
        if (timer != null)
        {
            timer.cancel(false);
        }
    }

    private void releaseCumulation()
    {
        if (cumulation != null)
        {
            cumulation.release();
            cumulation = null;
        }
    }

    /** Stops reading; the connection closes through the ring, after every answer already owed. */
    private void closeAfterAnswers()
    {
        if (closing)
        {
            return;
        }
        closing = true;
        pauses.pause(ReadPauses.Pause.CLOSING);
        endOfStreamOwed = true;
        publishEndOfStreamWhenDue();
    }

    private void publishEndOfStreamWhenDue()
    {
        if (!endOfStreamOwed || heldNotice.isHeld())
        {
            return;
        }
        if (pipeline.tryPublishEndOfStream(answers))
        {
            endOfStreamOwed = false;
        }
        else
        {
            scheduleRingRetry();
        }
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
        if (event == STOP_INTAKE)
        {
            pauses.pause(ReadPauses.Pause.CLOSING);
            return;
        }
        if (event == CLOSE_GRACEFULLY)
        {
            closeGracefully();
            return;
        }
        if (event instanceof IdleStateEvent)
        {
            if (!pauses.any())
            {
                stats.count(ConnectionEvent.IDLE_CLOSED);
                // through the ring, so answers to anything still in flight go out first
                closeAfterAnswers();
            }
            // else: silent because we stopped reading it, not because the gateway went quiet
            return;
        }
        super.userEventTriggered(ctx, event);
    }

    @Override
    public void channelWritabilityChanged(final ChannelHandlerContext ctx) throws Exception
    {
        if (channel.isWritable())
        {
            if (slowReaderTimer != null)
            {
                slowReaderTimer.cancel(false);
                slowReaderTimer = null;
            }
            pauses.resume(ReadPauses.Pause.SLOW_READER);
        }
        else
        {
            stats.count(ConnectionEvent.SLOW_READER_PAUSED);
            pauses.pause(ReadPauses.Pause.SLOW_READER);
            if (!settings.slowReaderTimeout().isZero() && slowReaderTimer == null)
            {
                slowReaderTimer = ctx.executor().schedule(
                    slowReaderCheck, settings.slowReaderTimeout().toNanos(), TimeUnit.NANOSECONDS);
            }
        }
        super.channelWritabilityChanged(ctx);
    }

    private void slowReaderCheck()
    {
        slowReaderTimer = null;
        if (channel.isActive() && !channel.isWritable())
        {
            closeSlowReader("its answers stayed past the high-water mark for " + settings.slowReaderTimeout());
        }
    }

    /** Closes at once if the answers it has not read pass the limit. */
    void checkUnwritten()
    {
        final ChannelOutboundBuffer outbound = channel.unsafe().outboundBuffer();
        if (outbound != null && outbound.totalPendingWriteBytes() > settings.maxUnwrittenBytes())
        {
            closeSlowReader(outbound.totalPendingWriteBytes() + " unwritten bytes, past the limit of " +
                settings.maxUnwrittenBytes());
        }
    }

    private void closeSlowReader(final String why)
    {
        if (!channel.isActive())
        {
            return;
        }
        stats.count(ConnectionEvent.SLOW_READER_CLOSED);
        LOG.warn("closing gateway connection {}: it does not read its answers ({})", channel.remoteAddress(), why);
        closing = true;
        pauses.pause(ReadPauses.Pause.CLOSING);
        ctx.close();
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
        if (!pipeline.tryPublishBid(requestId, campaignId, bidCpmMicros, answers, readEpochMillis, readNanos))
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
        publishOrHold(true, requestId, campaignId, priceCpmMicros);
    }

    @Override
    public void onLossNotice(final long requestId, final long campaignId)
    {
        loopCounters.increment(GatewayStats.LOSS_NOTICES);
        publishOrHold(false, requestId, campaignId, 0);
    }

    private void publishOrHold(final boolean win, final long requestId, final long campaignId, final long priceCpmMicros)
    {
        if (pipeline.tryPublishNotice(win, requestId, campaignId, priceCpmMicros, readEpochMillis, readNanos))
        {
            return;
        }
        // never shed: hold it, stop reading, retry; the parser stops after this frame
        heldNotice.hold(win, requestId, campaignId, priceCpmMicros);
        stats.count(ConnectionEvent.RING_BACKPRESSURE);
        stats.noticeHeld();
        pauses.pause(ReadPauses.Pause.RING_FULL);
        scheduleRingRetry();
    }

    @Override
    public boolean paused()
    {
        return heldNotice.isHeld();
    }

    private void scheduleRingRetry()
    {
        if (!ringRetryScheduled)
        {
            ringRetryScheduled = true;
            ctx.executor().schedule(retryRing, RING_RETRY_MICROS, TimeUnit.MICROSECONDS);
        }
    }

    /** On the event loop: the held notice, then the frames behind it, then a close owed. */
    private void retryRing()
    {
        ringRetryScheduled = false;
        if (heldNotice.isHeld())
        {
            if (!heldNotice.tryRelease(pipeline))
            {
                pipeline.wake();
                scheduleRingRetry();
                return;
            }
            stats.noticeReleased();
        }
        decodeCumulation();
        flushLoopWrites();
        if (heldNotice.isHeld())
        {
            return;
        }
        if (!channel.isActive())
        {
            // the gateway left while its notice waited: what it sent is in; a partial frame is not
            releaseCumulation();
        }
        publishEndOfStreamWhenDue();
        pauses.resume(ReadPauses.Pause.RING_FULL);
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
            checkUnwritten();
        }
    }

    /**
     * On the event loop: sends every answer owed, then half-closes (FIN, after TLS close_notify)
     * and reads and drops what the gateway still sends until it closes its side, for at most
     * {@link #LINGER_MILLIS}. Closing outright with unread bytes from the gateway would send a
     * reset, and a reset can destroy answers the gateway has not read yet.
     */
    void closeGracefully()
    {
        if (draining)
        {
            return;
        }
        draining = true;
        closing = true;
        answers.writeHandedOff();
        flushLoopWrites();
        releaseCumulation();
        if (!channel.isActive())
        {
            return;
        }
        channel.config().setAutoRead(true);
        ctx.writeAndFlush(Unpooled.EMPTY_BUFFER).addListener(written ->
        {
            final SslHandler tls = ctx.pipeline().get(SslHandler.class);
            if (tls != null)
            {
                tls.closeOutbound().addListener(closed -> shutdownOutput());
            }
            else
            {
                shutdownOutput();
            }
        });
        lingerTimer = ctx.executor().schedule(() -> ctx.close(), LINGER_MILLIS, TimeUnit.MILLISECONDS);
    }

    private void shutdownOutput()
    {
        if (channel instanceof DuplexChannel duplex && channel.isActive())
        {
            duplex.shutdownOutput();
        }
        else
        {
            ctx.close();
        }
    }
}
