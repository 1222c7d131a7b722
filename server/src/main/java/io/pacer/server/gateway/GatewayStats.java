package io.pacer.server.gateway;

import io.pacer.wire.ErrorCode;

import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.LongAdder;

/**
 * Counters of the gateway listener. {@link LongAdder} cells are per-thread in practice (one
 * event loop, one cell), so counting costs no shared contended write.
 */
public final class GatewayStats
{
    private final LongAdder bidRequests = new LongAdder();
    private final LongAdder winNotices = new LongAdder();
    private final LongAdder lossNotices = new LongAdder();
    private final LongAdder shed = new LongAdder();
    private final LongAdder bytesIn = new LongAdder();
    private final LongAdder bytesOut = new LongAdder();
    private final LongAdder[] errorsByCode = new LongAdder[6];
    private final AtomicLong openConnections = new AtomicLong();
    private final LongAdder acceptedConnections = new LongAdder();

    public GatewayStats()
    {
        for (int i = 0; i < errorsByCode.length; i++)
        {
            errorsByCode[i] = new LongAdder();
        }
    }

    void bidRequest()
    {
        bidRequests.increment();
    }

    void winNotice()
    {
        winNotices.increment();
    }

    void lossNotice()
    {
        lossNotices.increment();
    }

    void countShed()
    {
        shed.increment();
    }

    void bytesIn(final long bytes)
    {
        bytesIn.add(bytes);
    }

    void bytesOut(final long bytes)
    {
        bytesOut.add(bytes);
    }

    void protocolError(final ErrorCode code)
    {
        errorsByCode[code.value()].increment();
    }

    void connectionOpened()
    {
        openConnections.incrementAndGet();
        acceptedConnections.increment();
    }

    void connectionClosed()
    {
        openConnections.decrementAndGet();
    }

    public long bidRequests()
    {
        return bidRequests.sum();
    }

    public long winNotices()
    {
        return winNotices.sum();
    }

    public long lossNotices()
    {
        return lossNotices.sum();
    }

    /** Bid requests answered OVERLOADED because the ring was full. */
    public long shed()
    {
        return shed.sum();
    }

    public long bytesIn()
    {
        return bytesIn.sum();
    }

    public long bytesOut()
    {
        return bytesOut.sum();
    }

    public long protocolErrors(final ErrorCode code)
    {
        return errorsByCode[code.value()].sum();
    }

    public long openConnections()
    {
        return openConnections.get();
    }

    public long acceptedConnections()
    {
        return acceptedConnections.sum();
    }
}
