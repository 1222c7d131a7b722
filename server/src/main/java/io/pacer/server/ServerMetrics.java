package io.pacer.server;

import io.pacer.monitoring.PacerMetrics;
import io.pacer.pipeline.PacerPipeline;
import io.pacer.server.admin.AdminHandler;
import io.pacer.server.admin.AdminServer;
import io.pacer.server.admin.BearerTokenCheck;
import io.pacer.server.gateway.ConnectionEvent;
import io.pacer.server.gateway.GatewayServer;
import io.pacer.server.gateway.GatewayStats;
import io.pacer.wire.ErrorCode;

import java.util.Locale;

/**
 * The server's metrics catalogue: every meter the server registers beyond the pipeline's own,
 * in one list. Each reads a count its single writer keeps; nothing here counts on a hot path.
 */
final class ServerMetrics
{
    private ServerMetrics()
    {
    }

    static void register(
        final PacerMetrics m, final PacerPipeline pipeline, final GatewayServer gateway, final AdminServer adminServer,
        final AdminHandler admin, final BearerTokenCheck auth, final ServerJournal journal, final CampaignsFileWatcher watcher)
    {
        final GatewayStats stats = gateway.stats();
        m.bindPipeline(pipeline, () -> stats.total(GatewayStats.SHED));
        m.counter("pacer.requests", "Messages received from gateways, by type", null,
            () -> stats.total(GatewayStats.BID_REQUESTS), "type", "bid_request");
        m.counter("pacer.requests", "Messages received from gateways, by type", null,
            () -> stats.total(GatewayStats.WIN_NOTICES), "type", "win_notice");
        m.counter("pacer.requests", "Messages received from gateways, by type", null,
            () -> stats.total(GatewayStats.LOSS_NOTICES), "type", "loss_notice");
        for (final ErrorCode code : ErrorCode.values())
        {
            if (code != ErrorCode.NULL_VAL)
            {
                m.counter("pacer.protocol.errors", "Protocol errors answered with an Error message, by code", null,
                    () -> stats.protocolErrors(code), "code", code.name().toLowerCase(Locale.ROOT));
            }
        }
        m.gauge("pacer.connections.open", "Gateway connections open now", null, stats::openConnections);
        for (final ConnectionEvent event : ConnectionEvent.values())
        {
            m.counter(event.metricName(), event.help(), null, () -> stats.total(event));
        }
        final String received = "Gateway messages received, by identity and type (with permissions only)";
        final String refused = "Gateway messages refused by pacer.gateways, by identity and why";
        gateway.permissionCounters().all().forEach((identity, counts) ->
        {
            m.counter("pacer.gateway.messages", received, null, counts.bidRequests()::sum, "gateway", identity, "type", "bid_request");
            m.counter("pacer.gateway.messages", received, null, counts.winNotices()::sum, "gateway", identity, "type", "win_notice");
            m.counter("pacer.gateway.messages", received, null, counts.lossNotices()::sum, "gateway", identity, "type", "loss_notice");
            m.counter("pacer.gateway.refused", refused, null, counts.notPermitted()::get, "gateway", identity, "reason", "not_permitted");
            m.counter("pacer.gateway.refused", refused, null, counts.outsideCampaigns()::get, "gateway", identity, "reason",
                "outside_campaigns");
        });
        m.gauge("pacer.gateway.unwritten", "Answer bytes not yet written to gateways", "bytes", gateway::unwrittenBytes);
        m.counter("pacer.gateway.received", "Bytes received from gateways", "bytes", () -> stats.total(GatewayStats.BYTES_IN));
        m.counter("pacer.gateway.sent", "Bytes sent to gateways", "bytes", () -> stats.total(GatewayStats.BYTES_OUT));
        m.counter("pacer.admin.ring.waits", "Admin commands that found the ring full and were retried", null,
            admin::ringWaits);
        m.counter("pacer.admin.connections.not.allowed",
            "Admin connections closed at accept, before any read: their source is not in pacer.admin.allow", null,
            adminServer::notAllowed);
        m.counter("pacer.admin.auth.rejections",
            "Admin requests refused for a missing or wrong bearer token, or a read token on a PUT", null, auth::rejections);
        m.counter("pacer.admin.token.file.reload.failures",
            "Re-reads of pacer.admin.tokens-file that failed (the tokens read before stayed valid)", null,
            auth::tokenFileReloadFailures);
        journal.register(m, pipeline);
        if (watcher != null)
        {
            m.counter("pacer.campaigns.file.reloads", "Campaigns-file loads, by result", null, watcher::reloads,
                "result", "ok");
            m.counter("pacer.campaigns.file.reloads", "Campaigns-file loads, by result", null, watcher::rejections,
                "result", "rejected");
        }
    }
}
