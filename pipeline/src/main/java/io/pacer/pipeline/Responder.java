package io.pacer.pipeline;

import io.pacer.wire.Reason;

/**
 * Where a bid request's answer goes: one gateway connection. Only the {@link Replier} thread
 * calls these methods, so an implementation keeps its pending batch without locks.
 */
public interface Responder
{
    /**
     * Adds one answer to this connection's pending batch.
     *
     * @return true if the batch was empty before (the replier then remembers to flush it)
     */
    boolean append(long requestId, Reason reason);

    /**
     * Turns every BID in the pending batch into NO_BID / OVERLOADED: the journal failed to record
     * them, and nothing unrecorded may spend (fail closed).
     */
    void withdrawBids();

    /** Sends the pending batch: one write and one flush per ring batch. */
    void flush();

    /** Every answer for this connection has been flushed and no more will come: close it. */
    void endOfStream();
}
