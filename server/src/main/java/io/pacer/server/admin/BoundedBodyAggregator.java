package io.pacer.server.admin;

import io.netty.channel.ChannelHandlerContext;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpHeaderValues;
import io.netty.handler.codec.http.HttpMessage;
import io.netty.handler.codec.http.HttpObjectAggregator;
import io.netty.handler.codec.http.HttpRequest;
import io.netty.handler.codec.http.HttpResponseStatus;
import io.pacer.model.CampaignJson;

/**
 * Netty's {@link HttpObjectAggregator} for admin requests of at most {@code pacer.admin.max-body-bytes},
 * answering a larger one as every admin error is answered: 413 with {@code {"error": ...}} naming
 * the limit (Netty's own 413 has an empty body). The connection is closed after it: the rest of
 * the body may still be on its way.
 */
final class BoundedBodyAggregator extends HttpObjectAggregator
{
    private final int maxBodyBytes;

    BoundedBodyAggregator(final int maxBodyBytes)
    {
        super(maxBodyBytes);
        this.maxBodyBytes = maxBodyBytes;
    }

    @Override
    protected void handleOversizedMessage(final ChannelHandlerContext ctx, final HttpMessage oversized) throws Exception
    {
        if (!(oversized instanceof HttpRequest))
        {
            super.handleOversizedMessage(ctx, oversized);
            return;
        }
        final var response = AdminHandler.response(HttpResponseStatus.REQUEST_ENTITY_TOO_LARGE, "application/json",
            CampaignJson.error("request body larger than pacer.admin.max-body-bytes (" + maxBodyBytes + " bytes)"));
        response.headers().set(HttpHeaderNames.CONNECTION, HttpHeaderValues.CLOSE);
        AdminHandler.send(ctx, false, response);
    }
}
