package io.pacer.server.gateway;

import io.netty.buffer.ByteBuf;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.handler.codec.ByteToMessageDecoder;
import io.netty.handler.ssl.SslHandler;
import io.netty.handler.ssl.SslHandshakeCompletionEvent;
import io.netty.handler.timeout.IdleStateEvent;
import io.pacer.monitoring.SingleWriterCounters;
import io.pacer.pipeline.GatewayIds;
import io.pacer.pipeline.PacerPipeline;
import io.pacer.server.config.GatewayConfig;
import io.pacer.wire.FrameParser;
import io.pacer.wire.netty.FrameReader;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.concurrent.TimeUnit;

/**
 * One gateway connection. On its Netty event loop it decodes frames straight from the receive
 * buffer (no object per frame) and publishes them into the ring; the ring answers through its
 * {@link AnswerWriter}. Around that, each role is a class of its own, all on this event loop:
 * <ul>
 *   <li>{@link LoopWriter}: the answers written here, without the ring (OVERLOADED, errors);</li>
 *   <li>{@link HeldNotice}: a win or loss notice that found the ring full. It carries money and is
 *       never shed: it is held, reading stops, and it is retried every {@value #RING_RETRY_MICROS}
 *       microseconds; the frames after it wait, unread, in order;</li>
 *   <li>{@link ReadPauses}: why the connection is not being read (ring full, slow reader,
 *       closing);</li>
 *   <li>{@link SlowReaderGuard}: pauses a gateway that does not read its answers and closes it past
 *       the limit or the timeout;</li>
 *   <li>{@link Linger}: the graceful close, once every answer owed is written.</li>
 * </ul>
 * Under mutual TLS the handshake gives its identity ({@link PeerIdentity}), and with it what it may
 * send ({@link ConnectionPermits}). Where the connection is in its life is one {@link ConnectionState}. The event loop never waits
 * for the ring: a bid that finds it full is answered OVERLOADED.
 *
 * <p>About 400 lines because it is the one Netty handler of the gateway port: each of its
 * callbacks (bytes, TLS handshake, idle, writability, close) is a few lines that hand over to the
 * roles above, and the order in which it calls them (decode, flush, retry, end of stream) is what
 * keeps answers in order.
 */
public final class GatewayConnection extends ChannelInboundHandlerAdapter
{
    private static final Logger LOG = LoggerFactory.getLogger(GatewayConnection.class);
    private static final long RING_RETRY_MICROS = 100;

    /** Fired into each connection by {@link GatewayServer#stopIntake()}: read nothing more. */
    static final Object STOP_INTAKE = new Object();
    /** Fired into each connection by {@link GatewayServer#close()}, once the ring has drained. */
    static final Object CLOSE_GRACEFULLY = new Object();

    private final PacerPipeline pipeline;
    private final PermissionCounters permissions;
    private final GatewayIds identities;
    private final GatewayStats stats;
    private final GatewayConfig settings;
    private final FrameReader reader;
    private final HeldNotice heldNotice = new HeldNotice();
    private final Linger linger = new Linger();
    private final Runnable retryRing = this::retryRing;

    private ChannelHandlerContext ctx;
    private SingleWriterCounters counters;
    private AnswerWriter answers;
    private LoopWriter loopWriter;
    private FramePublisher publisher;
    private ReadPauses pauses;
    private SlowReaderGuard slowReader;

    private ConnectionState state = ConnectionState.OPEN;
    private ByteBuf cumulation;
    /** Guards against decoding again from within a decode (a shared pipeline drains in it). */
    private boolean decoding;
    /** An end-of-stream marker is to go through the ring once no notice is held. */
    private boolean endOfStreamOwed;
    private boolean ringRetryScheduled;

    public GatewayConnection(final PacerPipeline pipeline, final GatewayStats stats, final GatewayConfig settings)
    {
        this(pipeline, stats, settings, new PermissionCounters(settings.permissions()), new GatewayIds());
    }

    /** @param identities numbers the identities the journal records with each message */
    public GatewayConnection(final PacerPipeline pipeline, final GatewayStats stats, final GatewayConfig settings,
        final PermissionCounters permissions, final GatewayIds identities)
    {
        this.permissions = permissions;
        this.identities = identities;
        this.pipeline = pipeline;
        this.stats = stats;
        this.settings = settings;
        this.reader = new FrameReader(settings.maxFrameBytes());
    }

    @Override
    public void handlerAdded(final ChannelHandlerContext ctx)
    {
        this.ctx = ctx;
        this.counters = stats.forCurrentThread();
        this.pauses = new ReadPauses(ctx.channel());
        this.loopWriter = new LoopWriter(ctx, counters);
        this.slowReader = new SlowReaderGuard(ctx.channel(), settings, stats, pauses, this::closeSlowReader);
        this.answers = new AnswerWriter(stats, ctx, slowReader::checkUnwritten, this::closeGracefully);
        this.publisher = new FramePublisher(pipeline, answers, counters, loopWriter, heldNotice, this::noticeHeld);
        // plain TCP, or TLS without client certificates: no identity (the handshake may give one)
        publisher.permit(ConnectionPermits.of(permissions, PeerIdentity.ANONYMOUS));
    }

    /** Where the connection is in its life (tests). */
    ConnectionState state()
    {
        return state;
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
        linger.cancel();
        slowReader.cancel();
        // frames already received still count: a notice in them carries money
        decodeCumulation();
        flushLoopWrites();
        answers.writeHandedOff();
        state = ConnectionState.CLOSED;
        super.channelInactive(ctx);
    }

    @Override
    public void channelRead(final ChannelHandlerContext ctx, final Object msg)
    {
        final ByteBuf in = (ByteBuf)msg;
        if (!state.reads())
        {
            in.release();
            return;
        }
        counters.add(GatewayStats.BYTES_IN, in.readableBytes());
        cumulation = cumulation == null ? in : ByteToMessageDecoder.MERGE_CUMULATOR.cumulate(ctx.alloc(), cumulation, in);
        decodeCumulation();
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
        }
        else if (event == CLOSE_GRACEFULLY)
        {
            closeGracefully();
        }
        else if (event instanceof SslHandshakeCompletionEvent handshake)
        {
            if (handshake.isSuccess())
            {
                final String identity = PeerIdentity.of(ctx.pipeline().get(SslHandler.class));
                publisher.permit(ConnectionPermits.of(permissions, identity));
                publisher.identify(identities.register(identity));
                LOG.debug("gateway {} identified as \"{}\"", ctx.channel().remoteAddress(), identity);
            }
            else
            {
                // no certificate, one from another CA, or not TLS at all: Netty closes it
                stats.count(ConnectionEvent.TLS_HANDSHAKE_FAILED);
                LOG.debug("gateway {} refused at the TLS handshake: {}", ctx.channel().remoteAddress(),
                    handshake.cause().toString());
            }
            super.userEventTriggered(ctx, event);
        }
        else if (event instanceof IdleStateEvent)
        {
            // silent because we stopped reading it is not the gateway going quiet
            if (!pauses.any())
            {
                stats.count(ConnectionEvent.IDLE_CLOSED);
                // through the ring, so answers to anything still in flight go out first
                closeAfterAnswers(ConnectionState.CLOSING);
            }
        }
        else
        {
            super.userEventTriggered(ctx, event);
        }
    }

    @Override
    public void channelWritabilityChanged(final ChannelHandlerContext ctx) throws Exception
    {
        slowReader.writabilityChanged();
        super.channelWritabilityChanged(ctx);
    }

    @Override
    public void exceptionCaught(final ChannelHandlerContext ctx, final Throwable cause)
    {
        LOG.debug("gateway connection {} failed; closing", ctx.channel().remoteAddress(), cause);
        ctx.close();
    }

    /** Decodes what has arrived, up to a held notice; the rest waits for the ring. */
    private void decodeCumulation()
    {
        if (cumulation == null || heldNotice.isHeld() || !state.decodes() || decoding)
        {
            return;
        }
        // a shared pipeline may drain inside this decode (ring full): never decode within it
        decoding = true;
        publisher.startRead();
        final int consumed;
        try
        {
            consumed = reader.read(cumulation, publisher);
        }
        finally
        {
            decoding = false;
        }
        if (consumed == FrameParser.FRAMING_LOST)
        {
            // answer what was accepted before the bad frame, then close (through the ring)
            releaseCumulation();
            flushLoopWrites();
            closeAfterAnswers(ConnectionState.FRAMING_LOST);
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

    private void releaseCumulation()
    {
        if (cumulation != null)
        {
            cumulation.release();
            cumulation = null;
        }
    }

    /** Stops reading; the connection closes through the ring, after every answer already owed. */
    private void closeAfterAnswers(final ConnectionState next)
    {
        if (state == ConnectionState.OPEN)
        {
            state = next;
            pauses.pause(ReadPauses.Pause.CLOSING);
            endOfStreamOwed = true;
            publishEndOfStreamWhenDue();
        }
        else if (state == ConnectionState.CLOSING && next == ConnectionState.FRAMING_LOST)
        {
            state = next; // its end of stream is already owed
        }
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

    private void closeSlowReader(final String why)
    {
        if (!ctx.channel().isActive())
        {
            return;
        }
        stats.count(ConnectionEvent.SLOW_READER_CLOSED);
        LOG.warn("closing gateway connection {}: it does not read its answers ({})", ctx.channel().remoteAddress(), why);
        state = ConnectionState.CLOSED;
        pauses.pause(ReadPauses.Pause.CLOSING);
        ctx.close();
    }

    /** A notice found the ring full and is held: stop reading, and retry. */
    private void noticeHeld()
    {
        stats.count(ConnectionEvent.RING_BACKPRESSURE);
        stats.noticeHeld();
        pauses.pause(ReadPauses.Pause.RING_FULL);
        scheduleRingRetry();
    }

    private void scheduleRingRetry()
    {
        if (!ringRetryScheduled)
        {
            ringRetryScheduled = true;
            ctx.executor().schedule(retryRing, RING_RETRY_MICROS, TimeUnit.MICROSECONDS);
        }
    }

    /**
     * On the event loop: the held notice, then the frames behind it, then a close owed. The notice
     * counts as held until those frames are published too (a notice among them held in its turn is
     * counted first), so that a shutdown waiting for no notice to be held waits for them.
     */
    private void retryRing()
    {
        ringRetryScheduled = false;
        final boolean released = heldNotice.isHeld();
        if (released && !heldNotice.tryRelease(pipeline))
        {
            pipeline.wake();
            scheduleRingRetry();
            return;
        }
        try
        {
            decodeCumulation();
        }
        finally
        {
            if (released)
            {
                stats.noticeReleased();
            }
        }
        flushLoopWrites();
        if (heldNotice.isHeld())
        {
            return;
        }
        if (!ctx.channel().isActive())
        {
            // the gateway left while its notice waited: what it sent is in; a partial frame is not
            releaseCumulation();
        }
        publishEndOfStreamWhenDue();
        pauses.resume(ReadPauses.Pause.RING_FULL);
    }

    private void flushLoopWrites()
    {
        if (loopWriter.flush())
        {
            slowReader.checkUnwritten();
        }
    }

    /**
     * On the event loop, once the ring has answered everything before the end of stream (or the
     * server closes): writes every answer owed, then lingers ({@link Linger}).
     */
    void closeGracefully()
    {
        if (state == ConnectionState.LINGERING || state == ConnectionState.CLOSED)
        {
            // lingering already, or closed at once (a slow reader under TLS stays active while
            // its close_notify waits): nothing more to write, and no going back
            return;
        }
        final boolean active = ctx.channel().isActive();
        state = active ? ConnectionState.LINGERING : ConnectionState.CLOSED;
        answers.writeHandedOff();
        flushLoopWrites();
        releaseCumulation();
        if (active)
        {
            linger.start(ctx);
        }
    }
}
