package io.pacer.server.gateway;

import io.pacer.monitoring.SingleWriterCounters;
import io.pacer.pipeline.GatewayIds;
import io.pacer.pipeline.PacerPipeline;
import io.pacer.pipeline.Responder;
import io.pacer.server.config.GatewayPermissions;
import io.pacer.wire.BidRequestDecoder;
import io.pacer.wire.ErrorCode;
import io.pacer.wire.FrameListener;
import io.pacer.wire.LossNoticeDecoder;
import io.pacer.wire.Reason;
import io.pacer.wire.WinNoticeDecoder;

/**
 * What a gateway connection does with each frame it decodes, on its event loop: a bid or a
 * notice goes into the ring, stamped with the ingress time of the read it came in; a bid that
 * finds the ring full is answered OVERLOADED at once; a notice that finds it full is held (never
 * shed), and decoding stops behind it; a frame that cannot be taken is answered with an Error.
 * What the gateway may send ({@link ConnectionPermits}) is checked first: a message of a kind it
 * may not send is answered Error NOT_PERMITTED and skipped; a bid naming a campaign outside its
 * ids is answered NO_BID UNKNOWN_CAMPAIGN.
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
    private ConnectionPermits permits = ConnectionPermits.ALL;
    /** The gateway's identity id ({@link GatewayIds}), which the journal records with each message. */
    private int gateway = GatewayIds.ANONYMOUS;
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

    /** What the gateway may send, once its identity is known (before any frame under mutual TLS). */
    void permit(final ConnectionPermits permits)
    {
        this.permits = permits;
    }

    /** Who the gateway is, once its handshake says. */
    void identify(final int gateway)
    {
        this.gateway = gateway;
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
        permits.countReceived(GatewayPermissions.Kind.BID_REQUEST);
        // a bid of no price is INVALID_REQUEST whatever its campaign, decided in the ring before any
        // campaign is looked up (it tells nothing of which exist, and reserves nothing); so it is
        // let through to be answered in its turn, after what the connection sent before it
        // (ConnectionPermits.probes). Asked only of a bid the permissions would stop.
        if (!permits.bids && !isProbe(bidCpmMicros))
        {
            refuse(requestId, BidRequestDecoder.TEMPLATE_ID);
            return;
        }
        if (!permits.mayName(campaignId) && !isProbe(bidCpmMicros))
        {
            // as if it did not exist: a gateway cannot learn which campaigns outside its ids exist
            permits.countOutsideCampaigns();
            loopWriter.noBid(requestId, Reason.UNKNOWN_CAMPAIGN);
            return;
        }
        if (!pipeline.tryPublishBid(requestId, campaignId, bidCpmMicros, answers, readEpochMillis, readNanos, gateway))
        {
            counters.increment(GatewayStats.SHED);
            loopWriter.noBid(requestId, Reason.OVERLOADED);
        }
    }

    @Override
    public void onWinNotice(final long requestId, final long campaignId, final long priceCpmMicros)
    {
        counters.increment(GatewayStats.WIN_NOTICES);
        permits.countReceived(GatewayPermissions.Kind.WIN_NOTICE);
        if (!permits.wins || !permits.mayName(campaignId))
        {
            refuse(requestId, WinNoticeDecoder.TEMPLATE_ID);
            return;
        }
        publishOrHold(true, requestId, campaignId, priceCpmMicros);
    }

    @Override
    public void onLossNotice(final long requestId, final long campaignId)
    {
        counters.increment(GatewayStats.LOSS_NOTICES);
        permits.countReceived(GatewayPermissions.Kind.LOSS_NOTICE);
        if (!permits.losses || !permits.mayName(campaignId))
        {
            refuse(requestId, LossNoticeDecoder.TEMPLATE_ID);
            return;
        }
        publishOrHold(false, requestId, campaignId, 0);
    }

    @Override
    public void onInvalidFrame(final ErrorCode code, final long requestId, final int templateId)
    {
        counters.increment(GatewayStats.errorIndex(code));
        loopWriter.error(requestId, code, templateId);
    }

    /** A bid of no price on a connection whose permissions let probes through (see onBidRequest). */
    private boolean isProbe(final long bidCpmMicros)
    {
        return bidCpmMicros <= 0 && permits.probes;
    }

    /** A message its gateway may not send: Error NOT_PERMITTED, skipped (nothing is booked), counted. */
    private void refuse(final long requestId, final int templateId)
    {
        permits.countNotPermitted();
        onInvalidFrame(ErrorCode.NOT_PERMITTED, requestId, templateId);
    }

    /** The parser stops after a frame that left a notice held: the frames behind it wait. */
    @Override
    public boolean paused()
    {
        return heldNotice.isHeld();
    }

    private void publishOrHold(final boolean win, final long requestId, final long campaignId, final long priceCpmMicros)
    {
        if (!pipeline.tryPublishNotice(win, requestId, campaignId, priceCpmMicros, readEpochMillis, readNanos, gateway))
        {
            heldNotice.hold(win, requestId, campaignId, priceCpmMicros, gateway);
            onHeld.run();
        }
    }
}
