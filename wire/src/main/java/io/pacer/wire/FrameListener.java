package io.pacer.wire;

import io.pacer.units.CpmMicros;

/**
 * Receives what {@link FrameParser} finds, one call per frame, with the fields already decoded
 * into primitives: no per-message objects. A side overrides what it accepts; the defaults
 * report a message it does not accept as {@link ErrorCode#NOT_PERMITTED}.
 */
public interface FrameListener
{
    default void onBidRequest(long requestId, long campaignId, @CpmMicros long bidCpmMicros)
    {
        onInvalidFrame(ErrorCode.NOT_PERMITTED, requestId, io.pacer.wire.BidRequestDecoder.TEMPLATE_ID);
    }

    default void onWinNotice(long requestId, long campaignId, @CpmMicros long priceCpmMicros)
    {
        onInvalidFrame(ErrorCode.NOT_PERMITTED, requestId, io.pacer.wire.WinNoticeDecoder.TEMPLATE_ID);
    }

    default void onLossNotice(long requestId, long campaignId)
    {
        onInvalidFrame(ErrorCode.NOT_PERMITTED, requestId, io.pacer.wire.LossNoticeDecoder.TEMPLATE_ID);
    }

    /**
     * A BidResponse.
     *
     * @param decision 0 NO_BID, 1 BID
     * @param reason   the raw reason code
     */
    default void onBidResponse(long requestId, short decision, short reason)
    {
        onInvalidFrame(ErrorCode.NOT_PERMITTED, requestId, io.pacer.wire.BidResponseDecoder.TEMPLATE_ID);
    }

    /** An Error message received from the peer. */
    default void onErrorMessage(long requestId, int code, int templateId)
    {
        onInvalidFrame(ErrorCode.NOT_PERMITTED, requestId, io.pacer.wire.ErrorDecoder.TEMPLATE_ID);
    }

    /**
     * A frame broke the protocol. After {@link ErrorCode#MALFORMED_FRAME} framing is lost and the
     * parser stops; after any other code the frame has been skipped.
     *
     * @param requestId the offending request's id, 0 when unknown
     * @param templateId the offending message's template, 0 when unknown
     */
    void onInvalidFrame(ErrorCode code, long requestId, int templateId);

    /**
     * Asked after each frame: true stops {@link FrameParser#parse} there, leaving the frames
     * after it unconsumed (a gateway connection pauses this way while the ring has no room for
     * a notice it must not shed).
     */
    default boolean paused()
    {
        return false;
    }
}
