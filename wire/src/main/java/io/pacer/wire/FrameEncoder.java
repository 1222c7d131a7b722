package io.pacer.wire;

import io.pacer.units.CpmMicros;
import io.pacer.wire.BidRequestEncoder;
import io.pacer.wire.BidResponseEncoder;
import io.pacer.wire.Decision;
import io.pacer.wire.ErrorCode;
import io.pacer.wire.ErrorEncoder;
import io.pacer.wire.LossNoticeEncoder;
import io.pacer.wire.MessageHeaderEncoder;
import io.pacer.wire.Reason;
import io.pacer.wire.WinNoticeEncoder;
import org.agrona.MutableDirectBuffer;

/**
 * Writes whole frames (SOFH, SBE header, root block) with the generated SBE encoders. Reserved
 * bytes are always zero. One instance per thread; it allocates nothing after construction.
 */
public final class FrameEncoder
{
    /** A BidRequest frame's length. */
    public static final int BID_REQUEST_LENGTH = Sofh.FRAME_HEADER_LENGTH + BidRequestEncoder.BLOCK_LENGTH;
    /** A BidResponse frame's length. */
    public static final int BID_RESPONSE_LENGTH = Sofh.FRAME_HEADER_LENGTH + BidResponseEncoder.BLOCK_LENGTH;
    public static final int WIN_NOTICE_LENGTH = Sofh.FRAME_HEADER_LENGTH + WinNoticeEncoder.BLOCK_LENGTH;
    public static final int LOSS_NOTICE_LENGTH = Sofh.FRAME_HEADER_LENGTH + LossNoticeEncoder.BLOCK_LENGTH;
    public static final int ERROR_LENGTH = Sofh.FRAME_HEADER_LENGTH + ErrorEncoder.BLOCK_LENGTH;

    private final MessageHeaderEncoder header = new MessageHeaderEncoder();
    private final BidRequestEncoder bidRequest = new BidRequestEncoder();
    private final BidResponseEncoder bidResponse = new BidResponseEncoder();
    private final WinNoticeEncoder winNotice = new WinNoticeEncoder();
    private final LossNoticeEncoder lossNotice = new LossNoticeEncoder();
    private final ErrorEncoder error = new ErrorEncoder();

    /** @return bytes written */
    public int bidRequest(
        final MutableDirectBuffer buffer, final int offset, final long requestId, final long campaignId,
        final @CpmMicros long bidCpmMicros)
    {
        Sofh.write(buffer, offset, BID_REQUEST_LENGTH);
        bidRequest.wrapAndApplyHeader(buffer, offset + Sofh.LENGTH, header)
            .requestId(requestId)
            .campaignId(campaignId)
            .bidCpmMicros(bidCpmMicros);
        return BID_REQUEST_LENGTH;
    }

    /** A BID when {@code reason} is {@link Reason#NONE}, a NO_BID otherwise. @return bytes written */
    public int bidResponse(final MutableDirectBuffer buffer, final int offset, final long requestId, final Reason reason)
    {
        Sofh.write(buffer, offset, BID_RESPONSE_LENGTH);
        bidResponse.wrapAndApplyHeader(buffer, offset + Sofh.LENGTH, header)
            .requestId(requestId)
            .decision(reason == Reason.NONE ? Decision.BID : Decision.NO_BID)
            .reason(reason);
        buffer.setMemory(offset + BID_RESPONSE_LENGTH - 6, 6, (byte)0);
        return BID_RESPONSE_LENGTH;
    }

    /** @return bytes written */
    public int winNotice(
        final MutableDirectBuffer buffer, final int offset, final long requestId, final long campaignId,
        final @CpmMicros long priceCpmMicros)
    {
        Sofh.write(buffer, offset, WIN_NOTICE_LENGTH);
        winNotice.wrapAndApplyHeader(buffer, offset + Sofh.LENGTH, header)
            .requestId(requestId)
            .campaignId(campaignId)
            .priceCpmMicros(priceCpmMicros);
        return WIN_NOTICE_LENGTH;
    }

    /** @return bytes written */
    public int lossNotice(final MutableDirectBuffer buffer, final int offset, final long requestId, final long campaignId)
    {
        Sofh.write(buffer, offset, LOSS_NOTICE_LENGTH);
        lossNotice.wrapAndApplyHeader(buffer, offset + Sofh.LENGTH, header)
            .requestId(requestId)
            .campaignId(campaignId);
        return LOSS_NOTICE_LENGTH;
    }

    /** @return bytes written */
    public int error(
        final MutableDirectBuffer buffer, final int offset, final long requestId, final ErrorCode code,
        final int templateId)
    {
        Sofh.write(buffer, offset, ERROR_LENGTH);
        error.wrapAndApplyHeader(buffer, offset + Sofh.LENGTH, header)
            .requestId(requestId)
            .code(code)
            .templateId(templateId);
        buffer.setMemory(offset + ERROR_LENGTH - 4, 4, (byte)0);
        return ERROR_LENGTH;
    }
}
