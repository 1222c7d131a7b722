package io.pacer.server.gateway;

import io.netty.util.concurrent.FastThreadLocal;
import io.pacer.monitoring.SingleWriterCounters;
import io.pacer.wire.ErrorCode;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicLongArray;

/**
 * Counters of the gateway listener. Each thread that counts (an I/O event loop, the replier)
 * owns its own {@link SingleWriterCounters}, so counting a request costs one opaque store and no
 * shared write; totals are summed when read. Connection events ({@link ConnectionEvent}), which
 * happen once per connection or per episode, are plain atomics.
 */
public final class GatewayStats
{
    public static final int BID_REQUESTS = 0;
    public static final int WIN_NOTICES = 1;
    public static final int LOSS_NOTICES = 2;
    /** Bid requests answered OVERLOADED at ingress because the ring was full. */
    public static final int SHED = 3;
    public static final int BYTES_IN = 4;
    public static final int BYTES_OUT = 5;
    private static final int ERRORS = 6;
    private static final int SIZE = ERRORS + 6;

    private final List<SingleWriterCounters> perThread = new CopyOnWriteArrayList<>();
    private final FastThreadLocal<SingleWriterCounters> local = new FastThreadLocal<>()
    {
        @Override
        protected SingleWriterCounters initialValue()
        {
            final SingleWriterCounters counters = new SingleWriterCounters(SIZE);
            perThread.add(counters);
            return counters;
        }
    };
    private final AtomicLongArray events = new AtomicLongArray(ConnectionEvent.values().length);
    private final AtomicLong openConnections = new AtomicLong();
    private final AtomicLong noticesHeld = new AtomicLong();

    /** The calling thread's counters; keep the reference, it is only ever written by this thread. */
    SingleWriterCounters forCurrentThread()
    {
        return local.get();
    }

    static int errorIndex(final ErrorCode code)
    {
        return ERRORS + code.value();
    }

    void connectionOpened()
    {
        openConnections.incrementAndGet();
        count(ConnectionEvent.ACCEPTED);
    }

    void connectionClosed()
    {
        openConnections.decrementAndGet();
    }

    void count(final ConnectionEvent event)
    {
        events.incrementAndGet(event.ordinal());
    }

    /** How often {@code event} has happened. */
    public long total(final ConnectionEvent event)
    {
        return events.get(event.ordinal());
    }

    void noticeHeld()
    {
        noticesHeld.incrementAndGet();
    }

    void noticeReleased()
    {
        noticesHeld.decrementAndGet();
    }

    /**
     * Notices waiting, on connections that stopped being read, for room in the ring; a notice let in
     * counts until the frames received behind it are published too.
     */
    public long noticesHeld()
    {
        return noticesHeld.get();
    }

    /** A total over every counting thread; {@code index} is one of this class's constants. */
    public long total(final int index)
    {
        long sum = 0;
        for (final SingleWriterCounters counters : perThread)
        {
            sum += counters.get(index);
        }
        return sum;
    }

    public long protocolErrors(final ErrorCode code)
    {
        return total(errorIndex(code));
    }

    public long openConnections()
    {
        return openConnections.get();
    }
}
