package io.pacer.client;

import io.netty.bootstrap.Bootstrap;
import io.netty.buffer.ByteBuf;
import io.netty.channel.Channel;
import io.netty.channel.ChannelFuture;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.ChannelOption;
import io.netty.channel.EventLoop;
import io.netty.handler.codec.ByteToMessageDecoder;
import io.netty.handler.ssl.SslContext;
import io.netty.util.concurrent.FastThreadLocal;
import io.netty.util.concurrent.FastThreadLocalThread;
import io.netty.util.concurrent.ScheduledFuture;
import io.pacer.wire.FrameParser;
import io.pacer.wire.netty.FrameReader;
import io.pacer.wire.netty.Transport;

import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * One connection slot to a node: it connects, reconnects with backoff and jitter when dropped,
 * and runs its {@link ClientSession} on one event loop for its whole life, so the session's state
 * never changes thread. Callers wake it after queueing commands; at most one wake-up task is
 * queued at a time.
 *
 * <p>While it reads, a connection is its event loop's {@linkplain #dispatching() dispatching}
 * connection: a bid or notice made from an answer's callback goes out on it, written and flushed
 * with the rest of that read's work, rather than waking another connection for a write of its own.
 */
final class ClientConnection
{
    private static final int MAX_FRAME_BYTES = 1 << 16;
    private static final FastThreadLocal<ClientConnection> DISPATCHING = new FastThreadLocal<>();

    private final PacerClient client;
    private final NodeLink node;
    private final ClientSession session;
    private final EventLoop loop;
    private final Bootstrap bootstrap;
    private final long reconnectMinNanos;
    private final long reconnectMaxNanos;
    private final SplittableRandom jitter;
    private final AtomicInteger wakePending = new AtomicInteger();
    private final Runnable drainTask = this::drainAndFlush;
    private final ScheduledFuture<?> sweeper;
    private volatile boolean up;
    private Channel channel;
    private int failedAttempts;
    private boolean everConnected;
    private boolean closed;

    ClientConnection(
        final PacerClient client, final NodeLink node, final EventLoop loop, final PacerClient.Context context,
        final long seed)
    {
        this.client = client;
        this.node = node;
        this.loop = loop;
        this.session = new ClientSession(client, node, context);
        this.reconnectMinNanos = context.reconnectMin().toNanos();
        this.reconnectMaxNanos = context.reconnectMax().toNanos();
        this.jitter = new SplittableRandom(seed);
        final SslContext tls = context.sslContext();
        this.bootstrap = new Bootstrap()
            .group(loop)
            .channel(Transport.socketChannel())
            .option(ChannelOption.TCP_NODELAY, true)
            .option(ChannelOption.CONNECT_TIMEOUT_MILLIS, (int)context.connectTimeout().toMillis())
            .remoteAddress(node.address())
            .handler(new ChannelInitializer<>()
            {
                @Override
                protected void initChannel(final Channel ch)
                {
                    if (tls != null)
                    {
                        ch.pipeline().addLast(tls.newHandler(ch.alloc(), node.address().getHostString(), node.address().getPort()));
                    }
                    ch.pipeline().addLast(new Reader());
                }
            });
        final long sweepNanos = context.sweepInterval().toNanos();
        this.sweeper = loop.scheduleAtFixedRate(this::sweep, sweepNanos, sweepNanos, TimeUnit.NANOSECONDS);
    }

    ClientSession session()
    {
        return session;
    }

    NodeLink node()
    {
        return node;
    }

    /**
     * The connection whose answers the calling thread is handling now, or null (always null on a
     * thread that is not one of Netty's own: a caller's thread pays no thread-local lookup).
     */
    static ClientConnection dispatching()
    {
        return Thread.currentThread() instanceof FastThreadLocalThread ? DISPATCHING.get() : null;
    }

    /** Whether the connection is up (any thread; a bid routed to it may still find it dropped). */
    boolean isUp()
    {
        return up;
    }

    /** Any thread: has the event loop drain the session's queue soon. */
    void wake()
    {
        if (wakePending.get() == 0 && wakePending.compareAndSet(0, 1))
        {
            loop.execute(drainTask);
        }
    }

    void connect()
    {
        loop.execute(this::attempt);
    }

    private void attempt()
    {
        if (closed)
        {
            return;
        }
        bootstrap.connect().addListener((ChannelFuture f) ->
        {
            if (!f.isSuccess())
            {
                retryLater();
            }
        });
    }

    private void retryLater()
    {
        if (closed)
        {
            return;
        }
        final long ceiling = Math.min(reconnectMaxNanos, reconnectMinNanos << Math.min(20, failedAttempts));
        failedAttempts++;
        // full jitter over the upper half: nodes that dropped together do not all come back at once
        final long delay = ceiling / 2 + jitter.nextLong(ceiling / 2 + 1);
        loop.schedule(this::attempt, delay, TimeUnit.NANOSECONDS);
    }

    private void onActive(final Channel ch)
    {
        channel = ch;
        failedAttempts = 0;
        if (everConnected)
        {
            client.stats().increment(ClientStats.Count.RECONNECTS);
        }
        everConnected = true;
        session.connected(true);
        up = true;
        drainAndFlush();
    }

    private void onInactive()
    {
        up = false;
        channel = null;
        session.disconnected();
        retryLater();
    }

    private void drainAndFlush()
    {
        wakePending.set(0);
        final long now = System.nanoTime();
        session.drain(now);
        // deadlines are checked on every pass, not only by the sweeper: a busy loop's timers run late
        session.sweep(now);
        flush();
    }

    private void sweep()
    {
        session.sweep(System.nanoTime());
        if (session.isConnected() && node.hasWaiting())
        {
            session.drain(System.nanoTime());
        }
        flush();
    }

    private void flush()
    {
        final int length = session.outLength();
        if (length == 0)
        {
            return;
        }
        final Channel ch = channel;
        if (ch != null)
        {
            final ByteBuf bytes = ch.alloc().directBuffer(length);
            bytes.writeBytes(session.outArray(), 0, length);
            ch.writeAndFlush(bytes, ch.voidPromise());
        }
        session.clearOut();
    }

    /** Any thread: stops reconnecting and closes the channel, on the event loop. */
    void closeOnLoop()
    {
        if (loop.inEventLoop())
        {
            close();
        }
        else
        {
            loop.submit(this::close).syncUninterruptibly();
        }
    }

    private void close()
    {
        closed = true;
        sweeper.cancel(false);
        final Channel ch = channel;
        if (ch != null)
        {
            ch.close();
        }
    }

    /** The pipeline's reader, one per channel (a decoder cannot be added to a second channel). */
    private final class Reader extends ByteToMessageDecoder
    {
        private final FrameReader reader = new FrameReader(MAX_FRAME_BYTES);

        @Override
        public void channelActive(final ChannelHandlerContext ctx) throws Exception
        {
            onActive(ctx.channel());
            super.channelActive(ctx);
        }

        @Override
        public void channelInactive(final ChannelHandlerContext ctx) throws Exception
        {
            super.channelInactive(ctx);
            onInactive();
        }

        @Override
        protected void decode(final ChannelHandlerContext ctx, final ByteBuf in, final List<Object> unused)
        {
            session.clock(System.nanoTime());
            DISPATCHING.set(ClientConnection.this);
            final int read;
            try
            {
                read = reader.read(in, session);
            }
            finally
            {
                DISPATCHING.set(null);
            }
            if (read == FrameParser.FRAMING_LOST)
            {
                in.skipBytes(in.readableBytes());
                ctx.close();
            }
        }

        @Override
        public void channelReadComplete(final ChannelHandlerContext ctx) throws Exception
        {
            super.channelReadComplete(ctx);
            drainAndFlush();
        }

        @Override
        public void exceptionCaught(final ChannelHandlerContext ctx, final Throwable cause)
        {
            ctx.close();
        }
    }
}
