package io.pacer.server.gateway;

/**
 * Where a gateway connection is in its life. It only moves forward, in this order, though it may
 * skip states: a slow reader goes from {@link #OPEN} straight to {@link #CLOSED}.
 */
enum ConnectionState
{
    /** Read, decoded, published and answered. */
    OPEN,
    /**
     * Reads nothing more (the gateway went idle); what was received is still decoded, and an
     * end-of-stream marker through the ring closes it once every answer owed has gone out.
     */
    CLOSING,
    /**
     * A frame could not be delimited, so nothing after it can be trusted: nothing more is decoded,
     * and it closes through the ring as {@link #CLOSING} does.
     */
    FRAMING_LOST,
    /**
     * Every answer is written and our side is shut: what the gateway still sends is read and
     * dropped until it closes its side, or the linger ends ({@link Linger}).
     */
    LINGERING,
    /** Closed by us at once (a slow reader), or by the gateway. */
    CLOSED;

    /** Whether bytes that arrive now are still taken in. */
    boolean reads()
    {
        return this == OPEN;
    }

    /** Whether bytes already received are still decoded and published. */
    boolean decodes()
    {
        return this != FRAMING_LOST && this != LINGERING;
    }
}
