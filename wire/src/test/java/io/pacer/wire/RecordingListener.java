package io.pacer.wire;

import io.pacer.wire.ErrorCode;

import java.util.ArrayList;
import java.util.List;

/** Records what the parser reports, one line per frame. */
class RecordingListener implements FrameListener
{
    final List<String> events = new ArrayList<>();

    @Override
    public void onBidRequest(final long requestId, final long campaignId, final long bidCpmMicros)
    {
        events.add("bid " + requestId + " " + campaignId + " " + bidCpmMicros);
    }

    @Override
    public void onWinNotice(final long requestId, final long campaignId, final long priceCpmMicros)
    {
        events.add("win " + requestId + " " + campaignId + " " + priceCpmMicros);
    }

    @Override
    public void onLossNotice(final long requestId, final long campaignId)
    {
        events.add("loss " + requestId + " " + campaignId);
    }

    @Override
    public void onBidResponse(final long requestId, final short decision, final short reason)
    {
        events.add("response " + requestId + " " + decision + " " + reason);
    }

    @Override
    public void onErrorMessage(final long requestId, final int code, final int templateId)
    {
        events.add("errorMessage " + requestId + " " + code + " " + templateId);
    }

    @Override
    public void onInvalidFrame(final ErrorCode code, final long requestId, final int templateId)
    {
        events.add("invalid " + code + " " + requestId + " " + templateId);
    }
}
