package io.pacer.server.gateway;

import io.netty.channel.Channel;

/**
 * Why a gateway connection is not being read. The connection is read while no pause holds; the
 * first pause turns Netty's auto-read off, the last one to lift turns it back on. One owner: the
 * connection's event loop.
 */
final class ReadPauses
{
    /** A reason to stop reading. */
    enum Pause
    {
        /** A notice waits for room in the ring; the frames behind it wait unread, in order. */
        RING_FULL,
        /** The gateway does not read its answers: they passed the high-water mark. */
        SLOW_READER,
        /** The connection is closing: nothing more is read. */
        CLOSING
    }

    private final Channel channel;
    private int paused;

    ReadPauses(final Channel channel)
    {
        this.channel = channel;
    }

    void pause(final Pause pause)
    {
        if (paused == 0)
        {
            channel.config().setAutoRead(false);
        }
        paused |= 1 << pause.ordinal();
    }

    void resume(final Pause pause)
    {
        final int before = paused;
        paused &= ~(1 << pause.ordinal());
        if (before != 0 && paused == 0)
        {
            channel.config().setAutoRead(true);
        }
    }

    /** Whether any pause holds. */
    boolean any()
    {
        return paused != 0;
    }

    boolean holds(final Pause pause)
    {
        return (paused & (1 << pause.ordinal())) != 0;
    }
}
