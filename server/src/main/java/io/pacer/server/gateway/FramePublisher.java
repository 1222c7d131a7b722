package io.pacer.server.gateway;

import io.pacer.monitoring.SingleWriterCounters;
import io.pacer.pipeline.PacerPipeline;
import io.pacer.pipeline.Responder;
import io.pacer.wire.ErrorCode;
import io.pacer.wire.FrameListener;

/**
 * What a gateway connection does with each frame it decodes, on its event loop: a bid or a
 * notice goes into the ring, stamped with the ingress time of the read it came in; a bid that
 * finds the ring full is answered OVERLOADED at once; a notice that finds it full is held (never
 * shed), and decoding stops behind it; a frame that cannot be taken is answered with an Error.
 */
final class FramePublisher implements FrameListener
{
    private final PacerPipeline pipeline;
    private final Responder answers;
    private final SingleWriterCounters counters;
    private final LoopWriter loopWriter;
    private final HeldNotice heldNotice;
    /** Called once a notice is held: the connection stops reading and retries. */
    private final Runnable onHeld;
    private long readEpochMillis;
    private long readNanos;

    FramePublisher(
        final PacerPipeline pipeline, final Responder answers, final SingleWriterCounters counters,
        final LoopWriter loopWriter, final HeldNotice heldNotice, final Runnable onHeld)
    {
        this.pipeline = pipeline;
        this.answers = answers;
        this.counters = counters;
        this.loopWriter = loopWriter;
        this.heldNotice = heldNotice;
        this.onHeld = onHeld;
    }

    /**
     * Before decoding a read: every frame of one read shares its ingress time, so the clocks are
     * read twice per read, not per frame.
     */
    void startRead()
    {
        readEpochMillis = pipeline.clock().time();
        readNanos = System.nanoTime();
    }

    @Override
    public void onBidRequest(final long requestId, final long campaignId, final long bidCpmMicros)
    {
        counters.increment(GatewayStats.BID_REQUESTS);
        if (!pipeline.tryPublishBid(requestId, campaignId, bidCpmMicros, answers, readEpochMillis, readNanos))
        {
            counters.increment(GatewayStats.SHED);
            loopWriter.overloaded(requestId);
        }
    }

    @Override
    public void onWinNotice(final long requestId, final long campaignId, final long priceCpmMicros)
    {
        counters.increment(GatewayStats.WIN_NOTICES);
        publishOrHold(true, requestId, campaignId, priceCpmMicros);
    }

    @Override
    public void onLossNotice(final long requestId, final long campaignId)
    {
        counters.increment(GatewayStats.LOSS_NOTICES);
        publishOrHold(false, requestId, campaignId, 0);
    }

    @Override
    public void onInvalidFrame(final ErrorCode code, final long requestId, final int templateId)
    {
        counters.increment(GatewayStats.errorIndex(code));
        loopWriter.error(requestId, code, templateId);
    }

    /** The parser stops after a frame that left a notice held: the frames behind it wait. */
    @Override
    public boolean paused()
    {
        return heldNotice.isHeld();
    }

    private void publishOrHold(final boolean win, final long requestId, final long campaignId, final long priceCpmMicros)
    {
        if (!pipeline.tryPublishNotice(win, requestId, campaignId, priceCpmMicros, readEpochMillis, readNanos))
        {
            heldNotice.hold(win, requestId, campaignId, priceCpmMicros);
            onHeld.run();
        }
    }
}
