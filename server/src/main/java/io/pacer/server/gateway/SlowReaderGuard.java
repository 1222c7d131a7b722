package io.pacer.server.gateway;

import io.netty.channel.Channel;
import io.netty.channel.ChannelOutboundBuffer;
import io.netty.util.concurrent.ScheduledFuture;
import io.pacer.server.config.GatewayConfig;

import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;

/**
 * Keeps a gateway that does not read its answers from growing the pacer's memory. Past the
 * high-water mark of unwritten answers the connection stops being read (Netty's writability, with
 * the low-water mark at half); if it stays there for the slow-reader timeout, or its unwritten
 * bytes pass the limit, it is closed and counted. One owner: the connection's event loop.
 */
final class SlowReaderGuard
{
    private final Channel channel;
    private final GatewayConfig settings;
    private final GatewayStats stats;
    private final ReadPauses pauses;
    /** Closes the connection at once, saying why. */
    private final Consumer<String> close;
    private final Runnable timeoutCheck = this::timeoutCheck;
    private ScheduledFuture<?> timer;

    SlowReaderGuard(final Channel channel, final GatewayConfig settings, final GatewayStats stats, final ReadPauses pauses,
        final Consumer<String> close)
    {
        this.channel = channel;
        this.settings = settings;
        this.stats = stats;
        this.pauses = pauses;
        this.close = close;
    }

    /** After Netty's writability of the channel changed. */
    void writabilityChanged()
    {
        if (channel.isWritable())
        {
            cancel();
            pauses.resume(ReadPauses.Pause.SLOW_READER);
            return;
        }
        stats.count(ConnectionEvent.SLOW_READER_PAUSED);
        pauses.pause(ReadPauses.Pause.SLOW_READER);
        if (!settings.slowReaderTimeout().isZero() && timer == null)
        {
            timer = channel.eventLoop().schedule(timeoutCheck, settings.slowReaderTimeout().toNanos(), TimeUnit.NANOSECONDS);
        }
    }

    /** After a write and flush: closes at once if the answers not yet read pass the limit. */
    void checkUnwritten()
    {
        final ChannelOutboundBuffer outbound = channel.unsafe().outboundBuffer();
        if (outbound != null && outbound.totalPendingWriteBytes() > settings.maxUnwrittenBytes())
        {
            close.accept(outbound.totalPendingWriteBytes() + " unwritten bytes, past the limit of " +
                settings.maxUnwrittenBytes());
        }
    }

    /** Stops the timeout: a pending timer would keep a closed connection reachable. */
    void cancel()
    {
        if (timer != null)
        {
            timer.cancel(false);
            timer = null;
        }
    }

    private void timeoutCheck()
    {
        timer = null;
        if (channel.isActive() && !channel.isWritable())
        {
            close.accept("its answers stayed past the high-water mark for " + settings.slowReaderTimeout());
        }
    }
}
