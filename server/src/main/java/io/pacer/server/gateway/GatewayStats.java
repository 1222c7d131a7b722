package io.pacer.server.gateway;

import io.netty.util.concurrent.FastThreadLocal;
import io.pacer.monitoring.SingleWriterCounters;
import io.pacer.wire.ErrorCode;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Counters of the gateway listener. Each thread that counts (an I/O event loop, the replier)
 * owns its own {@link SingleWriterCounters}, so counting a request costs one opaque store and no
 * shared write; totals are summed when read. Connection counts, which change once per
 * connection, are plain atomics.
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
    private final AtomicLong openConnections = new AtomicLong();
    private final AtomicLong acceptedConnections = new AtomicLong();
    private final AtomicLong refusedConnections = new AtomicLong();
    private final AtomicLong idleClosed = new AtomicLong();
    private final AtomicLong slowReaderPaused = new AtomicLong();
    private final AtomicLong slowReaderClosed = new AtomicLong();
    private final AtomicLong ringBackPressure = new AtomicLong();
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
        acceptedConnections.incrementAndGet();
    }

    void connectionClosed()
    {
        openConnections.decrementAndGet();
    }

    void connectionRefused()
    {
        refusedConnections.incrementAndGet();
    }

    void idleClosed()
    {
        idleClosed.incrementAndGet();
    }

    void slowReaderPaused()
    {
        slowReaderPaused.incrementAndGet();
    }

    void slowReaderClosed()
    {
        slowReaderClosed.incrementAndGet();
    }

    void ringBackPressure()
    {
        ringBackPressure.incrementAndGet();
    }

    void noticeHeld()
    {
        noticesHeld.incrementAndGet();
    }

    void noticeReleased()
    {
        noticesHeld.decrementAndGet();
    }

    /** Notices waiting, on connections that stopped being read, for room in the ring. */
    public long noticesHeld()
    {
        return noticesHeld.get();
    }

    /** Times a connection stopped being read because its unwritten answers passed the high-water mark. */
    public long slowReaderPauses()
    {
        return slowReaderPaused.get();
    }

    /** Connections closed for not reading their answers (unwritten-bytes limit or slow-reader timeout). */
    public long slowReaderClosures()
    {
        return slowReaderClosed.get();
    }

    /** Times a connection stopped being read because the ring had no room for a notice it must not shed. */
    public long ringBackPressures()
    {
        return ringBackPressure.get();
    }

    /** Connections closed at once because pacer.gateway.max-connections were open. */
    public long refusedConnections()
    {
        return refusedConnections.get();
    }

    /** Connections closed for sending nothing for pacer.gateway.idle-timeout. */
    public long idleClosedConnections()
    {
        return idleClosed.get();
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

    public long acceptedConnections()
    {
        return acceptedConnections.get();
    }
}
