package io.pacer.client;

import java.net.InetSocketAddress;
import java.util.List;
import java.util.concurrent.ConcurrentLinkedQueue;

/**
 * One pacer node as the client sees it: its connections, and the notices waiting for one of them
 * to be up (written while the node was unreachable, or written to a connection that dropped before
 * the pacer was known to have read them).
 */
final class NodeLink
{
    /** A notice waiting for a connection; made only when connections drop or are full. */
    private record Waiting(int type, long requestId, long campaignId, long price, boolean resend)
    {
    }

    private final InetSocketAddress address;
    private final ConcurrentLinkedQueue<Waiting> waiting = new ConcurrentLinkedQueue<>();
    private List<ClientConnection> connections = List.of();

    NodeLink(final InetSocketAddress address)
    {
        this.address = address;
    }

    void connections(final List<ClientConnection> connections)
    {
        this.connections = List.copyOf(connections);
    }

    InetSocketAddress address()
    {
        return address;
    }

    List<ClientConnection> connections()
    {
        return connections;
    }

    /** A connection that is up, spreading by {@code spread}; null when none is. */
    ClientConnection pick(final long spread)
    {
        final List<ClientConnection> all = connections;
        final int n = all.size();
        final int first = (int)Long.remainderUnsigned(spread, n);
        for (int i = 0; i < n; i++)
        {
            final ClientConnection c = all.get((first + i) % n);
            if (c.isUp())
            {
                return c;
            }
        }
        return null;
    }

    /** Any thread: keeps a notice until a connection to this node is up, and wakes one that is. */
    void waitForConnection(final int type, final long requestId, final long campaignId, final long price, final boolean resend)
    {
        waiting.add(new Waiting(type, requestId, campaignId, price, resend));
        for (final ClientConnection c : connections)
        {
            if (c.isUp())
            {
                c.wake();
                return;
            }
        }
    }

    /** On a connected session's thread: writes the waiting notices to it. */
    void takeWaitingNotices(final ClientSession session)
    {
        Waiting w;
        while ((w = waiting.poll()) != null)
        {
            session.notice(w.type(), w.requestId(), w.campaignId(), w.price(), w.resend());
        }
    }

    boolean hasWaiting()
    {
        return !waiting.isEmpty();
    }
}
