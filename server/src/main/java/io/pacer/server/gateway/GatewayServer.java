package io.pacer.server.gateway;

import io.netty.bootstrap.ServerBootstrap;
import io.netty.channel.Channel;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.ChannelOption;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.group.ChannelGroup;
import io.netty.channel.group.DefaultChannelGroup;
import io.netty.util.concurrent.GlobalEventExecutor;
import io.pacer.loadtest.Transport;
import io.pacer.pipeline.PacerPipeline;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import io.netty.handler.timeout.IdleStateHandler;

import java.net.InetSocketAddress;
import java.time.Duration;
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
    private Channel serverChannel;

    public GatewayServer(final int ioThreads)
    {
        this.bossGroup = Transport.group(1, "pacer-gateway-accept");
        this.ioGroup = Transport.group(ioThreads, "pacer-gateway-io");
    }

    /**
     * Binds and starts accepting, refusing connections past {@code maxConnections} and closing
     * those idle longer than {@code idleTimeout} (zero: never).
     *
     * @return the bound address (port 0 resolves here)
     */
    public InetSocketAddress bind(
        final String host, final int port, final PacerPipeline pipeline, final int maxFrameBytes,
        final int maxConnections, final Duration idleTimeout)
        throws InterruptedException
    {
        final ServerBootstrap bootstrap = new ServerBootstrap()
            .group(bossGroup, ioGroup)
            .channel(Transport.serverChannel())
            .option(ChannelOption.SO_BACKLOG, 1024)
            .option(ChannelOption.SO_REUSEADDR, true)
            .childOption(ChannelOption.TCP_NODELAY, true)
            .childOption(ChannelOption.SO_KEEPALIVE, true)
            .childHandler(new ChannelInitializer<>()
            {
                @Override
                protected void initChannel(final Channel ch)
                {
                    if (connections.size() >= maxConnections)
                    {
                        stats.connectionRefused();
                        ch.close();
                        return;
                    }
                    connections.add(ch);
                    if (!idleTimeout.isZero())
                    {
                        ch.pipeline().addLast("idle", new IdleStateHandler(idleTimeout.toNanos(), 0, 0, TimeUnit.NANOSECONDS));
                    }
                    ch.pipeline().addLast("gateway", new GatewayConnection(pipeline, stats, maxFrameBytes));
                }
            });
        serverChannel = bootstrap.bind(host, port).sync().channel();
        final InetSocketAddress address = (InetSocketAddress)serverChannel.localAddress();
        LOG.info("gateway listening on {}:{} ({} transport)", address.getHostString(), address.getPort(), Transport.name());
        return address;
    }

    public GatewayStats stats()
    {
        return stats;
    }

    /** Stops accepting new connections and stops reading existing ones; answers still go out. */
    public void stopIntake()
    {
        if (serverChannel != null)
        {
            serverChannel.close().syncUninterruptibly();
        }
        connections.forEach(ch -> ch.config().setAutoRead(false));
    }

    /** Closes every connection and the event loops. */
    @Override
    public void close()
    {
        stopIntake();
        connections.close().awaitUninterruptibly(5, TimeUnit.SECONDS);
        bossGroup.shutdownGracefully(0, 2, TimeUnit.SECONDS).syncUninterruptibly();
        ioGroup.shutdownGracefully(0, 2, TimeUnit.SECONDS).syncUninterruptibly();
    }
}
