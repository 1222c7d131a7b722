package io.pacer.server.admin;

import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelPipeline;
import io.netty.handler.codec.http.FullHttpMessage;
import io.netty.handler.codec.http.FullHttpResponse;
import io.netty.handler.codec.http.HttpMessage;
import io.netty.handler.codec.http.HttpObjectAggregator;
import io.netty.handler.codec.http.HttpRequest;
import io.netty.handler.codec.http.HttpResponse;
import io.netty.handler.codec.http.HttpResponseStatus;
import io.netty.handler.codec.http.HttpUtil;
import io.netty.util.ReferenceCountUtil;
import io.pacer.model.CampaignJson;

/**
 * Netty's {@link HttpObjectAggregator} for admin requests of at most {@code pacer.admin.max-body-bytes},
 * answering a larger one as every admin error is answered: 413 with {@code {"error": ...}} naming
 * the limit (Netty's own 413 has an empty body). Both of Netty's paths to a 413 give it: a body
 * found too large as it arrives, and a request that announced it with {@code Expect: 100-continue}.
 * The connection is kept or closed as Netty would: kept when the rest of the body can be skipped
 * (keep-alive, or not sent yet), closed otherwise.
 */
final class BoundedBodyAggregator extends HttpObjectAggregator
{
    BoundedBodyAggregator(final int maxBodyBytes)
    {
        super(maxBodyBytes);
    }

    @Override
    protected Object newContinueResponse(final HttpMessage start, final int maxContentLength, final ChannelPipeline pipeline)
    {
        final Object response = super.newContinueResponse(start, maxContentLength, pipeline);
        if (response instanceof HttpResponse answer && answer.status().code() == HttpResponseStatus.REQUEST_ENTITY_TOO_LARGE.code())
        {
            ReferenceCountUtil.release(response);
            final FullHttpResponse tooLarge = tooLarge();
            HttpUtil.setContentLength(tooLarge, tooLarge.content().readableBytes());
            return tooLarge;
        }
        return response;
    }

    @Override
    protected void handleOversizedMessage(final ChannelHandlerContext ctx, final HttpMessage oversized) throws Exception
    {
        if (!(oversized instanceof HttpRequest))
        {
            super.handleOversizedMessage(ctx, oversized);
            return;
        }
        // as Netty decides: a whole request, or one whose client neither waits nor keeps the connection, closes it
        final boolean keepOpen = !(oversized instanceof FullHttpMessage) &&
            (HttpUtil.is100ContinueExpected(oversized) || HttpUtil.isKeepAlive(oversized));
        AdminHandler.send(ctx, keepOpen, tooLarge());
    }

    private FullHttpResponse tooLarge()
    {
        return AdminHandler.response(HttpResponseStatus.REQUEST_ENTITY_TOO_LARGE, "application/json",
            CampaignJson.error("request body larger than pacer.admin.max-body-bytes (" + maxContentLength() + " bytes)"));
    }
}
