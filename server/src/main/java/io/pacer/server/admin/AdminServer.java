package io.pacer.server.admin;

import io.netty.bootstrap.ServerBootstrap;
import io.netty.channel.Channel;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.EventLoopGroup;
import io.netty.handler.codec.http.HttpServerCodec;
import io.pacer.server.config.AdminConfig;
import io.pacer.server.net.ReloadingTls;
import io.pacer.server.net.SourceFilter;
import io.pacer.wire.netty.Transport;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.net.InetSocketAddress;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

/** The admin HTTP listener, on its own event loop, apart from the gateway's. */
public final class AdminServer implements AutoCloseable
{
    private static final Logger LOG = LoggerFactory.getLogger(AdminServer.class);

    private final EventLoopGroup group = Transport.group(1, "pacer-admin");
    private final AtomicLong notAllowed = new AtomicLong();
    private Channel serverChannel;

    /** Connections closed at accept because their source is not in {@code pacer.admin.allow}. */
    public long notAllowed()
    {
        return notAllowed.get();
    }

    /** @return the bound address */
    public InetSocketAddress bind(final AdminConfig config, final AdminHandler handler, final ReloadingTls tls)
        throws InterruptedException
    {
        final SourceFilter sources = new SourceFilter(config.allow());
        final ServerBootstrap bootstrap = new ServerBootstrap()
            .group(group)
            .channel(Transport.serverChannel())
            .childHandler(new ChannelInitializer<>()
            {
                @Override
                protected void initChannel(final Channel ch)
                {
                    if (!sources.allows(ch.remoteAddress()))
                    {
                        // before any handler is added: nothing from it is ever read
                        notAllowed.incrementAndGet();
                        ch.close();
                        return;
                    }
                    if (tls != null)
                    {
                        ch.pipeline().addLast("tls", tls.current().newHandler(ch.alloc()));
                    }
                    ch.pipeline()
                        .addLast(new HttpServerCodec())
                        .addLast(new BoundedBodyAggregator(config.maxBodyBytes()))
                        .addLast(handler);
                }
            });
        serverChannel = bootstrap.bind(config.host(), config.port()).sync().channel();
        if (tls != null)
        {
            group.scheduleWithFixedDelay(tls::check, 1, 1, TimeUnit.SECONDS);
        }
        final InetSocketAddress address = (InetSocketAddress)serverChannel.localAddress();
        LOG.info("admin listening on {}://{}:{}", tls == null ? "http" : "https", address.getHostString(), address.getPort());
        return address;
    }

    @Override
    public void close()
    {
        if (serverChannel != null)
        {
            serverChannel.close().syncUninterruptibly();
        }
        group.shutdownGracefully(0, 2, TimeUnit.SECONDS).syncUninterruptibly();
    }
}
