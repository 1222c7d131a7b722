package io.pacer.client;

import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;

import java.time.Duration;
import java.util.Locale;
import java.util.concurrent.TimeUnit;

/**
 * Publishes a client's counts and latency to the application's Micrometer registry (Micrometer
 * is an optional dependency: only this class needs it). Names follow Prometheus conventions:
 * {@code pacer_client_bids_sent_total}, {@code pacer_client_failsafe_total{reason=...}},
 * {@code pacer_client_latency_seconds}, {@code pacer_client_notices_pending}, ...
 */
public final class ClientMetrics
{
    private ClientMetrics()
    {
    }

    /** Registers the client's meters; its latency is recorded from now on. */
    public static void bind(final PacerClient client, final MeterRegistry registry)
    {
        final ClientStats stats = client.stats();
        for (final ClientStats.Count count : ClientStats.Count.values())
        {
            final String name = count.name().toLowerCase(Locale.ROOT);
            if (name.startsWith("failsafe_"))
            {
                FunctionCounter.builder("pacer.client.failsafe", stats, s -> s.get(count))
                    .description("NO_BIDs the client gave by itself, by reason")
                    .tag("reason", name.substring("failsafe_".length()))
                    .register(registry);
            }
            else
            {
                FunctionCounter.builder("pacer.client." + name.replace('_', '.'), stats, s -> s.get(count))
                    .description(description(count))
                    .register(registry);
            }
        }
        Gauge.builder("pacer.client.notices.pending", client, PacerClient::pendingNotices)
            .description("Notices taken and not yet known to be read by the pacer")
            .register(registry);
        final Timer latency = Timer.builder("pacer.client.latency")
            .description("From bid() to the pacer's answer")
            .publishPercentileHistogram()
            .minimumExpectedValue(Duration.ofNanos(10_000))
            .maximumExpectedValue(Duration.ofSeconds(1))
            .register(registry);
        client.latencyListener(nanos -> latency.record(nanos, TimeUnit.NANOSECONDS));
    }

    private static String description(final ClientStats.Count count)
    {
        return switch (count)
        {
            case BIDS_SENT -> "Bid requests written to a connection";
            case ANSWERED_BID -> "BID answers from the pacer";
            case ANSWERED_NO_BID -> "NO_BID answers from the pacer";
            case LATE_ANSWERS -> "Answers that came after their deadline";
            case NOTICES_SENT -> "Win and loss notices written, resends included";
            case NOTICES_RESENT -> "Notices written again after their connection dropped";
            case NOTICES_ACKNOWLEDGED -> "Notices known to be read by the pacer";
            case RELEASES -> "LossNotices sent by the client for bids it failed safe";
            case PROBES -> "Probes sent to learn that notices were read";
            case RECONNECTS -> "Connections made again after a drop";
            case PACER_ERRORS -> "Error frames from the pacer, and frames the client could not parse";
            default -> count.name();
        };
    }
}
