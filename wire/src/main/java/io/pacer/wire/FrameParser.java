package io.pacer.wire;

import io.pacer.units.Units;
import io.pacer.wire.BidRequestDecoder;
import io.pacer.wire.BidResponseDecoder;
import io.pacer.wire.ErrorCode;
import io.pacer.wire.ErrorDecoder;
import io.pacer.wire.LossNoticeDecoder;
import io.pacer.wire.MessageHeaderDecoder;
import io.pacer.wire.WinNoticeDecoder;
import org.agrona.DirectBuffer;

/**
 * Splits a byte stream into protocol frames and decodes them straight from the buffer with the
 * generated SBE decoders, following protocol.md's error rules. It keeps no state between calls
 * beyond its reusable decoders: hand it whatever bytes have arrived and it consumes every whole
 * frame among them. One instance per thread.
 */
public final class FrameParser
{
    /** {@link #parse} result: framing is lost (MALFORMED_FRAME reported); close the connection. */
    public static final int FRAMING_LOST = -1;

    private final int maxFrameBytes;
    private final MessageHeaderDecoder header = new MessageHeaderDecoder();
    private final BidRequestDecoder bidRequest = new BidRequestDecoder();
    private final WinNoticeDecoder winNotice = new WinNoticeDecoder();
    private final LossNoticeDecoder lossNotice = new LossNoticeDecoder();
    private final BidResponseDecoder bidResponse = new BidResponseDecoder();
    private final ErrorDecoder error = new ErrorDecoder();

    /** @param maxFrameBytes the largest frame accepted; larger ones are MALFORMED_FRAME */
    public FrameParser(final int maxFrameBytes)
    {
        if (maxFrameBytes < FrameEncoder.BID_REQUEST_LENGTH)
        {
            throw new IllegalArgumentException("maxFrameBytes must be >= " + FrameEncoder.BID_REQUEST_LENGTH);
        }
        this.maxFrameBytes = maxFrameBytes;
    }

    /**
     * Consumes every whole frame in {@code [offset, offset + length)}, or those up to the one
     * after which the listener reports {@link FrameListener#paused()}.
     *
     * @return bytes consumed (a partial frame at the end is left for the next call), or
     *         {@link #FRAMING_LOST} once a frame is malformed
     */
    public int parse(final DirectBuffer buffer, final int offset, final int length, final FrameListener listener)
    {
        int position = offset;
        final int end = offset + length;
        while (true)
        {
            final int frameLength = parseOne(buffer, position, end - position, listener);
            if (frameLength == FRAMING_LOST)
            {
                return FRAMING_LOST;
            }
            if (frameLength == 0)
            {
                return position - offset;
            }
            position += frameLength;
            if (listener.paused())
            {
                return position - offset;
            }
        }
    }

    /**
     * Handles the frame at {@code offset}, if whole.
     *
     * @return its length, 0 if it is not complete yet, or {@link #FRAMING_LOST}
     */
    public int parseOne(final DirectBuffer buffer, final int offset, final int available, final FrameListener listener)
    {
        if (available < 4)
        {
            return 0;
        }
        final long messageLength = Sofh.messageLength(buffer, offset);
        if (messageLength < Sofh.FRAME_HEADER_LENGTH || messageLength > maxFrameBytes)
        {
            listener.onInvalidFrame(ErrorCode.MALFORMED_FRAME, 0, 0);
            return FRAMING_LOST;
        }
        if (available < Sofh.LENGTH)
        {
            return 0;
        }
        if (Sofh.encodingType(buffer, offset) != Sofh.SBE_LITTLE_ENDIAN)
        {
            listener.onInvalidFrame(ErrorCode.MALFORMED_FRAME, 0, 0);
            return FRAMING_LOST;
        }
        final int frameLength = (int)messageLength;
        if (available < frameLength)
        {
            return 0;
        }
        header.wrap(buffer, offset + Sofh.LENGTH);
        final int blockLength = header.blockLength();
        final int templateId = header.templateId();
        final int version = header.version();
        if (header.schemaId() != MessageHeaderDecoder.SCHEMA_ID)
        {
            listener.onInvalidFrame(ErrorCode.UNKNOWN_SCHEMA, 0, templateId);
            return frameLength;
        }
        final int requiredBlock = requiredBlockLength(templateId);
        if (requiredBlock < 0)
        {
            listener.onInvalidFrame(ErrorCode.UNKNOWN_TEMPLATE, 0, templateId);
            return frameLength;
        }
        final int blockOffset = offset + Sofh.FRAME_HEADER_LENGTH;
        if (blockLength < requiredBlock || frameLength < Sofh.FRAME_HEADER_LENGTH + blockLength)
        {
            final boolean requestIdPresent = Math.min(blockLength, frameLength - Sofh.FRAME_HEADER_LENGTH) >= 8;
            listener.onInvalidFrame(ErrorCode.BLOCK_TOO_SHORT,
                requestIdPresent ? buffer.getLong(blockOffset, BidRequestDecoder.BYTE_ORDER) : 0, templateId);
            return frameLength;
        }
        switch (templateId)
        {
            case BidRequestDecoder.TEMPLATE_ID ->
            {
                bidRequest.wrap(buffer, blockOffset, blockLength, version);
                listener.onBidRequest(bidRequest.requestId(), bidRequest.campaignId(),
                    Units.cpmMicros(bidRequest.bidCpmMicros()));
            }
            case WinNoticeDecoder.TEMPLATE_ID ->
            {
                winNotice.wrap(buffer, blockOffset, blockLength, version);
                listener.onWinNotice(winNotice.requestId(), winNotice.campaignId(),
                    Units.cpmMicros(winNotice.priceCpmMicros()));
            }
            case LossNoticeDecoder.TEMPLATE_ID ->
            {
                lossNotice.wrap(buffer, blockOffset, blockLength, version);
                listener.onLossNotice(lossNotice.requestId(), lossNotice.campaignId());
            }
            case BidResponseDecoder.TEMPLATE_ID ->
            {
                bidResponse.wrap(buffer, blockOffset, blockLength, version);
                listener.onBidResponse(bidResponse.requestId(), bidResponse.decisionRaw(), bidResponse.reasonRaw());
            }
            default ->
            {
                error.wrap(buffer, blockOffset, blockLength, version);
                listener.onErrorMessage(error.requestId(), error.codeRaw(), error.templateId());
            }
        }
        return frameLength;
    }

    private static int requiredBlockLength(final int templateId)
    {
        return switch (templateId)
        {
            case BidRequestDecoder.TEMPLATE_ID -> BidRequestDecoder.BLOCK_LENGTH;
            case WinNoticeDecoder.TEMPLATE_ID -> WinNoticeDecoder.BLOCK_LENGTH;
            case LossNoticeDecoder.TEMPLATE_ID -> LossNoticeDecoder.BLOCK_LENGTH;
            case BidResponseDecoder.TEMPLATE_ID -> BidResponseDecoder.BLOCK_LENGTH;
            case ErrorDecoder.TEMPLATE_ID -> ErrorDecoder.BLOCK_LENGTH;
            default -> -1;
        };
    }
}
