package io.pacer.server.gateway;

import io.netty.bootstrap.ServerBootstrap;
import io.netty.channel.Channel;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.ChannelOption;
import io.netty.channel.ChannelOutboundBuffer;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.SingleThreadEventLoop;
import io.netty.channel.WriteBufferWaterMark;
import io.netty.channel.group.ChannelGroup;
import io.netty.channel.group.DefaultChannelGroup;
import io.netty.util.concurrent.EventExecutor;
import io.netty.util.concurrent.Future;
import io.netty.util.concurrent.GlobalEventExecutor;
import io.pacer.pipeline.DrainLoop;
import io.pacer.pipeline.GatewayIds;
import io.pacer.pipeline.PacerPipeline;
import io.pacer.server.config.GatewayConfig;
import io.pacer.server.config.GatewayPermissions;
import io.pacer.server.net.ReloadingTls;
import io.pacer.server.net.SourceFilter;
import io.pacer.wire.netty.Transport;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import io.netty.handler.timeout.IdleStateHandler;

import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;

/**
 * The gateway TCP listener: Netty accepts connections and gives each a
 * {@link GatewayConnection}, on {@code ioThreads} event loops.
 */
public final class GatewayServer implements AutoCloseable
{
    private static final Logger LOG = LoggerFactory.getLogger(GatewayServer.class);

    private final EventLoopGroup bossGroup;
    private final EventLoopGroup ioGroup;
    private final ChannelGroup connections = new DefaultChannelGroup("gateway", GlobalEventExecutor.INSTANCE);
    private final GatewayStats stats = new GatewayStats();
    private final DrainLoop drainLoop;
    private final PermissionCounters permissions;
    private final GatewayIds identities;
    private Channel serverChannel;

    public GatewayServer(final int ioThreads, final GatewayPermissions permissions, final GatewayIds identities)
    {
        this.identities = identities;
        this.permissions = new PermissionCounters(permissions);
        this.bossGroup = Transport.group(1, "pacer-gateway-accept");
        this.ioGroup = Transport.group(ioThreads, "pacer-gateway-io");
        this.drainLoop = new NettyDrainLoop((SingleThreadEventLoop)ioGroup.iterator().next());
    }

    /**
     * The first I/O event loop ({@code pacer-gateway-io-0}), which runs a shared pipeline's
     * consumers: connections it reads are answered with no thread hop.
     */
    public DrainLoop drainLoop()
    {
        return drainLoop;
    }

    /**
     * Binds {@code settings}' host and port and starts accepting, within its limits.
     *
     * @param tls the server TLS context, reloaded when its files change, or null for plain TCP
     * @return the bound address (port 0 resolves here)
     */
    public InetSocketAddress bind(final GatewayConfig settings, final PacerPipeline pipeline, final ReloadingTls tls)
        throws InterruptedException
    {
        // GatewayConfig bounds the mark to 64 MiB
        final int highWaterMark = (int)settings.writeHighWaterMark();
        final WriteBufferWaterMark waterMark = new WriteBufferWaterMark(highWaterMark / 2, highWaterMark);
        final SourceFilter sources = new SourceFilter(settings.allow());
        final ServerBootstrap bootstrap = new ServerBootstrap()
            .group(bossGroup, ioGroup)
            .channel(Transport.serverChannel())
            .option(ChannelOption.SO_BACKLOG, 1024)
            .option(ChannelOption.SO_REUSEADDR, true)
            .childOption(ChannelOption.TCP_NODELAY, true)
            .childOption(ChannelOption.SO_KEEPALIVE, true)
            .childOption(ChannelOption.WRITE_BUFFER_WATER_MARK, waterMark)
            .childHandler(new ChannelInitializer<>()
            {
                @Override
                protected void initChannel(final Channel ch)
                {
                    if (!sources.allows(ch.remoteAddress()))
                    {
                        // before any handler is added: nothing from it is ever read
                        stats.count(ConnectionEvent.NOT_ALLOWED);
                        ch.close();
                        return;
                    }
                    if (connections.size() >= settings.maxConnections())
                    {
                        stats.count(ConnectionEvent.REFUSED);
                        ch.close();
                        return;
                    }
                    connections.add(ch);
                    if (tls != null)
                    {
                        ch.pipeline().addLast("tls", tls.current().newHandler(ch.alloc()));
                    }
                    if (!settings.idleTimeout().isZero())
                    {
                        ch.pipeline().addLast("idle",
                            new IdleStateHandler(settings.idleTimeout().toNanos(), 0, 0, TimeUnit.NANOSECONDS));
                    }
                    ch.pipeline().addLast("gateway", new GatewayConnection(pipeline, stats, settings, permissions, identities));
                }
            });
        serverChannel = bootstrap.bind(settings.host(), settings.port()).sync().channel();
        if (tls != null)
        {
            // on the accept loop, which reads no gateway's traffic
            bossGroup.scheduleWithFixedDelay(tls::check, 1, 1, TimeUnit.SECONDS);
        }
        final InetSocketAddress address = (InetSocketAddress)serverChannel.localAddress();
        LOG.info("gateway listening on {}:{} ({} transport{})", address.getHostString(), address.getPort(),
            Transport.name(), tls == null ? "" : ", TLS");
        return address;
    }

    /** Answers not yet written to gateways, summed over connections (Netty's outbound buffers). */
    public long unwrittenBytes()
    {
        long total = 0;
        for (final Channel ch : connections)
        {
            final ChannelOutboundBuffer outbound = ch.unsafe().outboundBuffer();
            if (outbound != null)
            {
                total += outbound.totalPendingWriteBytes();
            }
        }
        return total;
    }

    public GatewayStats stats()
    {
        return stats;
    }

    /** Messages refused by {@code pacer.gateways}, per identity. */
    public PermissionCounters permissionCounters()
    {
        return permissions;
    }

    /**
     * Stops accepting new connections and stops reading existing ones; answers still go out.
     * Returns once every I/O loop has passed the stop (5 s at most): no connection it knows of
     * reads any more (one accepted as the listener closed may be read until its own stop).
     */
    public void stopIntake()
    {
        if (serverChannel != null)
        {
            serverChannel.close().syncUninterruptibly();
        }
        // on each connection's event loop, which owns its reading
        connections.forEach(ch -> ch.pipeline().fireUserEventTriggered(GatewayConnection.STOP_INTAKE));
        awaitLoopPass();
    }

    /**
     * Waits (5 s at most in all) until every I/O loop has run the tasks queued on it before this
     * call, and finished the one in hand; for a loop already shutting down, until it has stopped.
     * Returns at once on an I/O loop.
     */
    private void awaitLoopPass()
    {
        final List<Future<?>> passes = new ArrayList<>();
        for (final EventExecutor loop : ioGroup)
        {
            if (loop.inEventLoop())
            {
                return;
            }
            passes.add(passOf(loop));
        }
        final long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(5);
        for (final Future<?> pass : passes)
        {
            pass.awaitUninterruptibly(Math.max(0, deadline - System.nanoTime()), TimeUnit.NANOSECONDS);
        }
    }

    /** Done once {@code loop} has run what was queued on it so far: an empty task's, or its stop's. */
    private static Future<?> passOf(final EventExecutor loop)
    {
        if (!loop.isShuttingDown())
        {
            try
            {
                return loop.submit(() -> { });
            }
            catch (final RejectedExecutionException stopped)
            {
                // it stopped since the check: its termination is the pass
            }
        }
        return loop.terminationFuture();
    }

    /**
     * Closes every connection gracefully (answers owed first, then a half-close, waiting up to
     * {@link Linger#LINGER_MILLIS} for each gateway to close its side), then the
     * event loops. Drain the ring first.
     */
    @Override
    public void close()
    {
        stopIntake();
        connections.forEach(ch -> ch.pipeline().fireUserEventTriggered(GatewayConnection.CLOSE_GRACEFULLY));
        connections.newCloseFuture().awaitUninterruptibly(Linger.LINGER_MILLIS + 1_000, TimeUnit.MILLISECONDS);
        connections.close().awaitUninterruptibly(5, TimeUnit.SECONDS);
        bossGroup.shutdownGracefully(0, 2, TimeUnit.SECONDS).syncUninterruptibly();
        ioGroup.shutdownGracefully(0, 2, TimeUnit.SECONDS).syncUninterruptibly();
    }
}
