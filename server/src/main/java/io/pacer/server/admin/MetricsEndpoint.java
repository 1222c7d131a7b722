package io.pacer.server.admin;

import io.netty.channel.ChannelHandlerContext;
import io.netty.handler.codec.http.FullHttpRequest;

/** Serves {@code GET /metrics}. */
@FunctionalInterface
public interface MetricsEndpoint
{
    void serve(ChannelHandlerContext ctx, FullHttpRequest request, boolean keepAlive);

    /** No metrics registry yet: 404, rather than a page that pretends. */
    MetricsEndpoint NOT_AVAILABLE = (ctx, request, keepAlive) -> AdminHandler.send(ctx, keepAlive,
        io.netty.handler.codec.http.HttpResponseStatus.NOT_FOUND, "application/json",
        "{\"error\":\"metrics are not available in this build\"}");
}
