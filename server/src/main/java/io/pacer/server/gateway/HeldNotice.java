package io.pacer.server.gateway;

import io.pacer.pipeline.PacerPipeline;

/**
 * The one win or loss notice a gateway connection holds while the ring has no room for it. A
 * notice carries money and is never shed: it is kept here, in order, until the ring takes it.
 */
final class HeldNotice
{
    private boolean held;
    private boolean win;
    private long requestId;
    private long campaignId;
    private long priceCpmMicros;
    private int gateway;

    void hold(final boolean win, final long requestId, final long campaignId, final long priceCpmMicros, final int gateway)
    {
        this.gateway = gateway;
        this.held = true;
        this.win = win;
        this.requestId = requestId;
        this.campaignId = campaignId;
        this.priceCpmMicros = priceCpmMicros;
    }

    boolean isHeld()
    {
        return held;
    }

    /** Publishes the held notice if the ring has room now; true once nothing is held. */
    boolean tryRelease(final PacerPipeline pipeline)
    {
        if (held && pipeline.tryPublishNotice(win, requestId, campaignId, priceCpmMicros, pipeline.clock().time(),
            System.nanoTime(), gateway))
        {
            held = false;
        }
        return !held;
    }
}
