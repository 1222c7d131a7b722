package io.pacer.server.admin;

import io.netty.channel.ChannelHandlerContext;
import io.netty.handler.codec.http.HttpResponseStatus;
import io.pacer.model.CampaignJson;
import io.pacer.model.CampaignSnapshot;
import io.pacer.pipeline.AdminCommand;
import io.pacer.pipeline.PacerPipeline;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Admin commands into the ring and their answers out: a command is published without ever
 * blocking an event loop, and the HTTP answer is rendered on the connection's event loop once
 * every shard has applied it.
 */
final class RingRequests
{
    private static final Logger LOG = LoggerFactory.getLogger(RingRequests.class);
    private static final String JSON = "application/json";
    private static final long RING_TIMEOUT_SECONDS = 10;

    private final PacerPipeline pipeline;
    private final AtomicLong ringWaits = new AtomicLong();

    /** What an applied command is answered with. */
    record Answer(HttpResponseStatus status, String body)
    {
    }

    /** Turns a command's result into its answer. */
    interface Render
    {
        Answer render(List<CampaignSnapshot> result);
    }

    RingRequests(final PacerPipeline pipeline)
    {
        this.pipeline = pipeline;
    }

    static Answer ok(final String body)
    {
        return new Answer(HttpResponseStatus.OK, body);
    }

    /**
     * Publishes the command: if the ring is full, the connection stops being read and the command
     * is retried every millisecond, for at most half the reply timeout; then it fails, not applied.
     */
    AdminCommand submit(final ChannelHandlerContext ctx, final AdminCommand command)
    {
        if (!pipeline.trySubmit(command))
        {
            ringWaits.incrementAndGet();
            ctx.channel().config().setAutoRead(false);
            retrySubmit(ctx, command, System.nanoTime() + TimeUnit.SECONDS.toNanos(RING_TIMEOUT_SECONDS) / 2);
        }
        return command;
    }

    /** Commands that found the ring full and were retried. */
    long ringWaits()
    {
        return ringWaits.get();
    }

    private void retrySubmit(final ChannelHandlerContext ctx, final AdminCommand command, final long deadlineNanos)
    {
        ctx.executor().schedule(() ->
        {
            if (pipeline.trySubmit(command))
            {
                ctx.channel().config().setAutoRead(true);
            }
            else if (System.nanoTime() - deadlineNanos > 0)
            {
                ctx.channel().config().setAutoRead(true);
                command.completeExceptionally(new IllegalStateException("the pipeline stayed full; try again"));
            }
            else
            {
                retrySubmit(ctx, command, deadlineNanos);
            }
        }, 1, TimeUnit.MILLISECONDS);
    }

    /** Answers once {@code result} completes (503, not applied, if it fails or times out). */
    static void reply(
        final ChannelHandlerContext ctx, final boolean keepAlive, final CompletableFuture<List<CampaignSnapshot>> result,
        final Render render)
    {
        result.orTimeout(RING_TIMEOUT_SECONDS, TimeUnit.SECONDS).whenCompleteAsync((value, failure) ->
        {
            if (failure != null)
            {
                LOG.warn("admin request failed", failure);
                AdminHandler.send(ctx, keepAlive, HttpResponseStatus.SERVICE_UNAVAILABLE, JSON,
                    CampaignJson.error("not applied: " + failure));
            }
            else
            {
                final Answer answer = render.render(value);
                AdminHandler.send(ctx, keepAlive, answer.status(), JSON, answer.body());
            }
        }, ctx.executor());
    }
}
