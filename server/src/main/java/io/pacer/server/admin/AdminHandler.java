package io.pacer.server.admin;

import io.netty.buffer.Unpooled;
import io.netty.channel.ChannelFutureListener;
import io.netty.channel.ChannelHandler;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.SimpleChannelInboundHandler;
import io.netty.handler.codec.http.DefaultFullHttpResponse;
import io.netty.handler.codec.http.FullHttpRequest;
import io.netty.handler.codec.http.FullHttpResponse;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpHeaderValues;
import io.netty.handler.codec.http.HttpMethod;
import io.netty.handler.codec.http.HttpResponseStatus;
import io.netty.handler.codec.http.HttpUtil;
import io.netty.handler.codec.http.HttpVersion;
import io.netty.handler.codec.http.QueryStringDecoder;
import io.pacer.model.CampaignBatch;
import io.pacer.model.CampaignDefinition;
import io.pacer.model.CampaignDefinitionParser;
import io.pacer.model.CampaignJson;
import io.pacer.model.InvalidDefinitionException;
import io.pacer.pipeline.AdminCommand;
import io.pacer.pipeline.PacerPipeline;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.nio.charset.StandardCharsets;

/**
 * The admin API (docs/operations.md). Reads and writes go through the ring as ordered events, so a
 * GET sees a consistent state and a PUT is answered only once it has been applied.
 */
@ChannelHandler.Sharable
public final class AdminHandler extends SimpleChannelInboundHandler<FullHttpRequest>
{
    private static final Logger LOG = LoggerFactory.getLogger(AdminHandler.class);
    private static final String JSON = "application/json";

    private final PacerPipeline pipeline;
    private final RingRequests requests;
    private final BearerTokenCheck auth;
    private static final String HEALTH_UP = "{\"status\":\"UP\"}";
    private static final String HEALTH_DOWN = "{\"status\":\"DOWN\"}";
    private final HealthState health;
    private final MetricsEndpoint metrics;

    public AdminHandler(
        final PacerPipeline pipeline, final BearerTokenCheck auth, final HealthState health, final MetricsEndpoint metrics)
    {
        this.pipeline = pipeline;
        this.requests = new RingRequests(pipeline);
        this.auth = auth;
        this.health = health;
        this.metrics = metrics;
    }

    @Override
    protected void channelRead0(final ChannelHandlerContext ctx, final FullHttpRequest request)
    {
        final boolean keepAlive = HttpUtil.isKeepAlive(request);
        final String path = new QueryStringDecoder(request.uri()).path();
        final HttpMethod method = request.method();
        try
        {
            if ("/health".equals(path))
            {
                requireMethod(method, HttpMethod.GET);
                if (pipeline.journalFailed())
                {
                    // failed closed: answering, but no BIDs, until a restart
                    send(ctx, keepAlive, HttpResponseStatus.SERVICE_UNAVAILABLE, JSON,
                        com.fasterxml.jackson.databind.node.JsonNodeFactory.instance.objectNode()
                            .put("status", "DOWN")
                            .put("reason", "journal write failed; no BIDs until restart: " + pipeline.journalFailure())
                            .toString());
                    return;
                }
                final boolean up = health.isUp();
                final String role = health.role();
                send(ctx, keepAlive, up ? HttpResponseStatus.OK : HttpResponseStatus.SERVICE_UNAVAILABLE, JSON,
                    role == null ? (up ? HEALTH_UP : HEALTH_DOWN) :
                        "{\"status\":\"" + (up ? "UP" : "DOWN") + "\",\"role\":\"" + role + "\"}");
            }
            else if ("/metrics".equals(path))
            {
                requireMethod(method, HttpMethod.GET);
                auth.check(request.headers().get(HttpHeaderNames.AUTHORIZATION), BearerTokenCheck.Role.READ);
                metrics.serve(ctx, request, keepAlive);
            }
            else if ("/campaigns".equals(path) || "/campaigns/".equals(path))
            {
                campaigns(ctx, request, keepAlive);
            }
            else if (path.startsWith("/campaigns/"))
            {
                campaign(ctx, request, keepAlive, path.substring("/campaigns/".length()));
            }
            else
            {
                send(ctx, keepAlive, HttpResponseStatus.NOT_FOUND, JSON, CampaignJson.error("no such path: " + path));
            }
        }
        catch (final HttpProblem problem)
        {
            final FullHttpResponse response = response(problem.status, JSON, CampaignJson.error(problem.getMessage()));
            problem.headers.forEach((name, value) -> response.headers().set(name, value));
            send(ctx, keepAlive, response);
        }
    }

    /** {@code GET /campaigns}: one page; {@code PUT /campaigns}: a bulk update, applied whole or not at all. */
    private void campaigns(final ChannelHandlerContext ctx, final FullHttpRequest request, final boolean keepAlive)
    {
        if (HttpMethod.GET.equals(request.method()))
        {
            auth.check(request.headers().get(HttpHeaderNames.AUTHORIZATION), BearerTokenCheck.Role.READ);
            final PageRequest page = PageRequest.parse(new QueryStringDecoder(request.uri()).parameters());
            RingRequests.reply(ctx, keepAlive,
                requests.submit(ctx, AdminCommand.queryPage(page.fromStart(), page.afterId(), page.limit(), page.filter(),
                    pipeline.shardCount())),
                found -> RingRequests.ok(CampaignJson.page(found.subList(0, Math.min(page.limit(), found.size())),
                    found.size() > page.limit())));
        }
        else if (HttpMethod.PUT.equals(request.method()))
        {
            auth.check(request.headers().get(HttpHeaderNames.AUTHORIZATION), BearerTokenCheck.Role.WRITE);
            final CampaignBatch batch;
            try
            {
                batch = CampaignBatch.parse(request.content().toString(StandardCharsets.UTF_8));
            }
            catch (final InvalidDefinitionException ex)
            {
                throw new HttpProblem(HttpResponseStatus.BAD_REQUEST, ex.getMessage());
            }
            if (!batch.errors().isEmpty())
            {
                send(ctx, keepAlive, HttpResponseStatus.BAD_REQUEST, JSON, CampaignJson.batchErrors(batch));
                return;
            }
            requireJournal();
            LOG.info("admin PUT of {} campaign(s) from {}", batch.definitions().size(), ctx.channel().remoteAddress());
            final int applied = batch.definitions().size();
            RingRequests.reply(ctx, keepAlive,
                requests.submit(ctx, AdminCommand.updateAll(batch.definitions(), pipeline.shardCount())),
                none -> RingRequests.ok("{\"applied\":" + applied + "}"));
        }
        else
        {
            throw new HttpProblem(HttpResponseStatus.METHOD_NOT_ALLOWED, request.method() + " not allowed here")
                .header("Allow", "GET, PUT");
        }
    }

    private void requireJournal()
    {
        if (pipeline.journalFailed())
        {
            // it could only be applied in memory, and the restart the failure needs would lose it
            throw new HttpProblem(HttpResponseStatus.SERVICE_UNAVAILABLE,
                "not applied: the journal has failed and could not record it; restart the pacer first");
        }
    }

    private void campaign(
        final ChannelHandlerContext ctx, final FullHttpRequest request, final boolean keepAlive, final String idText)
    {
        final long id = parseId(idText);
        if (HttpMethod.GET.equals(request.method()))
        {
            auth.check(request.headers().get(HttpHeaderNames.AUTHORIZATION), BearerTokenCheck.Role.READ);
            RingRequests.reply(ctx, keepAlive, requests.submit(ctx, AdminCommand.query(id, pipeline.shardCount())),
                found -> found.isEmpty() ?
                new RingRequests.Answer(HttpResponseStatus.NOT_FOUND, CampaignJson.error("no campaign " + idText)) :
                RingRequests.ok(CampaignJson.state(found.get(0))));
        }
        else if (HttpMethod.PUT.equals(request.method()))
        {
            auth.check(request.headers().get(HttpHeaderNames.AUTHORIZATION), BearerTokenCheck.Role.WRITE);
            final CampaignDefinition definition = parseDefinition(request, id);
            requireJournal();
            LOG.info("admin PUT campaign {} from {}", idText, ctx.channel().remoteAddress());
            RingRequests.reply(ctx, keepAlive, requests.submit(ctx, AdminCommand.update(definition, pipeline.shardCount())),
                state -> RingRequests.ok(CampaignJson.state(state.get(0))));
        }
        else
        {
            throw new HttpProblem(HttpResponseStatus.METHOD_NOT_ALLOWED, request.method() + " not allowed here")
                .header("Allow", "GET, PUT");
        }
    }

    /** Commands that found the ring full and were retried. */
    public long ringWaits()
    {
        return requests.ringWaits();
    }

    private static CampaignDefinition parseDefinition(final FullHttpRequest request, final long pathId)
    {
        final String body = request.content().toString(StandardCharsets.UTF_8);
        try
        {
            final CampaignDefinition definition = CampaignDefinitionParser.parseJson(body);
            if (definition.id() != pathId)
            {
                throw new InvalidDefinitionException("id", "body id " + Long.toUnsignedString(definition.id()) +
                    " differs from the path's " + Long.toUnsignedString(pathId));
            }
            return definition;
        }
        catch (final InvalidDefinitionException ex)
        {
            throw new HttpProblem(HttpResponseStatus.BAD_REQUEST, ex.getMessage());
        }
    }

    private static long parseId(final String text)
    {
        try
        {
            return Long.parseUnsignedLong(text);
        }
        catch (final NumberFormatException ex)
        {
            throw new HttpProblem(HttpResponseStatus.BAD_REQUEST,
                "id: must be an unsigned 64-bit integer, was \"" + text + "\"");
        }
    }

    private static void requireMethod(final HttpMethod actual, final HttpMethod allowed)
    {
        if (!allowed.equals(actual))
        {
            throw new HttpProblem(HttpResponseStatus.METHOD_NOT_ALLOWED, actual + " not allowed here")
                .header("Allow", allowed.name());
        }
    }

    static FullHttpResponse response(final HttpResponseStatus status, final String contentType, final String body)
    {
        final FullHttpResponse response = new DefaultFullHttpResponse(HttpVersion.HTTP_1_1, status,
            Unpooled.copiedBuffer(body, StandardCharsets.UTF_8));
        response.headers().set(HttpHeaderNames.CONTENT_TYPE, contentType);
        return response;
    }

    static void send(
        final ChannelHandlerContext ctx, final boolean keepAlive, final HttpResponseStatus status, final String contentType,
        final String body)
    {
        send(ctx, keepAlive, response(status, contentType, body));
    }

    static void send(final ChannelHandlerContext ctx, final boolean keepAlive, final FullHttpResponse response)
    {
        HttpUtil.setContentLength(response, response.content().readableBytes());
        if (keepAlive)
        {
            response.headers().set(HttpHeaderNames.CONNECTION, HttpHeaderValues.KEEP_ALIVE);
            ctx.writeAndFlush(response);
        }
        else
        {
            response.headers().set(HttpHeaderNames.CONNECTION, HttpHeaderValues.CLOSE);
            ctx.writeAndFlush(response).addListener(ChannelFutureListener.CLOSE);
        }
    }

    @Override
    public void exceptionCaught(final ChannelHandlerContext ctx, final Throwable cause)
    {
        LOG.debug("admin connection failed", cause);
        ctx.close();
    }
}
