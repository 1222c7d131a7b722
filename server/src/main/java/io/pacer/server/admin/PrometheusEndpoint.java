package io.pacer.server.admin;

import io.netty.channel.ChannelHandlerContext;
import io.netty.handler.codec.http.FullHttpRequest;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpResponseStatus;
import io.pacer.monitoring.PacerMetrics;

/** {@code GET /metrics}: Prometheus text, or OpenMetrics when the scraper's Accept header asks for it. */
public final class PrometheusEndpoint implements MetricsEndpoint
{
    private final PacerMetrics metrics;

    public PrometheusEndpoint(final PacerMetrics metrics)
    {
        this.metrics = metrics;
    }

    @Override
    public void serve(final ChannelHandlerContext ctx, final FullHttpRequest request, final boolean keepAlive)
    {
        final String contentType = PacerMetrics.contentTypeFor(request.headers().get(HttpHeaderNames.ACCEPT));
        AdminHandler.send(ctx, keepAlive, HttpResponseStatus.OK, contentType, metrics.scrape(contentType));
    }
}
