package io.pacer.server.gateway;

import io.netty.buffer.Unpooled;
import io.netty.channel.Channel;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.socket.DuplexChannel;
import io.netty.handler.ssl.SslHandler;
import io.netty.util.concurrent.ScheduledFuture;

import java.util.concurrent.TimeUnit;

/**
 * The last step of a graceful close: once every answer is written, shut our side (FIN, after TLS
 * close_notify) and read and drop what the gateway still sends until it closes its side, for at
 * most {@link #LINGER_MILLIS}. Closing outright with unread bytes from the gateway would send a
 * reset, and a reset can destroy answers the gateway has not read yet.
 */
final class Linger
{
    /** How long a closing connection waits for the gateway to close its side. */
    static final long LINGER_MILLIS = 2_000;

    private ScheduledFuture<?> timer;

    /** On the event loop, after the last answer was written: starts the close. */
    void start(final ChannelHandlerContext ctx)
    {
        final Channel channel = ctx.channel();
        channel.config().setAutoRead(true);
        ctx.writeAndFlush(Unpooled.EMPTY_BUFFER).addListener(written ->
        {
            final SslHandler tls = ctx.pipeline().get(SslHandler.class);
            if (tls != null)
            {
                tls.closeOutbound().addListener(closed -> shutdownOutput(ctx));
            }
            else
            {
                shutdownOutput(ctx);
            }
        });
        timer = ctx.executor().schedule(() -> ctx.close(), LINGER_MILLIS, TimeUnit.MILLISECONDS);
    }

    /** Stops the timer once the connection closed: a pending timer would keep it reachable. */
    void cancel()
    {
        if (timer != null)
        {
            timer.cancel(false);
            timer = null;
        }
    }

    private static void shutdownOutput(final ChannelHandlerContext ctx)
    {
        final Channel channel = ctx.channel();
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
