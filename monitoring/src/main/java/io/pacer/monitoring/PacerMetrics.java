package io.pacer.monitoring;

import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.Tags;
import io.micrometer.core.instrument.binder.jvm.ClassLoaderMetrics;
import io.micrometer.core.instrument.binder.jvm.JvmGcMetrics;
import io.micrometer.core.instrument.binder.jvm.JvmInfoMetrics;
import io.micrometer.core.instrument.binder.jvm.JvmMemoryMetrics;
import io.micrometer.core.instrument.binder.jvm.JvmThreadMetrics;
import io.micrometer.core.instrument.binder.system.ProcessorMetrics;
import io.micrometer.core.instrument.binder.system.UptimeMetrics;
import io.micrometer.core.instrument.config.MeterFilter;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import io.pacer.model.ShardCounters;
import io.pacer.model.ShardCounters.Counter;
import io.pacer.pipeline.PacerPipeline;
import io.pacer.pipeline.ShardView;
import io.pacer.wire.Reason;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.function.LongSupplier;
import java.util.function.ToLongFunction;

/**
 * The pacer's metrics: one Prometheus registry, fed without touching the hot path. Counters are
 * kept by the single-writer threads in plain fields; this class registers functions that read
 * them when Prometheus scrapes. Names follow Prometheus conventions ({@code pacer_} prefix, base
 * units, counters ending in {@code _total}); no label ever carries a campaign id.
 */
public final class PacerMetrics implements AutoCloseable
{
    /** Prometheus text exposition format 0.0.4. */
    public static final String PROMETHEUS_TEXT = "text/plain; version=0.0.4; charset=utf-8";
    /** OpenMetrics 1.0 text. */
    public static final String OPENMETRICS_TEXT = "application/openmetrics-text; version=1.0.0; charset=utf-8";

    private final PrometheusMeterRegistry registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
    private final DecisionMetrics decisions = new DecisionMetrics();
    private final List<Object> strongReferences = new ArrayList<>();
    private final JvmGcMetrics gcMetrics = new JvmGcMetrics();

    public PacerMetrics(final String version)
    {
        // names promtool's lint rejects: a counter in nanoseconds (process_cpu_usage covers CPU)
        // and a gauge ending in _count
        registry.config().meterFilter(MeterFilter.deny(id -> "process.cpu.time".equals(id.getName())));
        registry.config().meterFilter(new MeterFilter()
        {
            @Override
            public Meter.Id map(final Meter.Id id)
            {
                return "system.cpu.count".equals(id.getName()) ? id.withName("system.cpus") : id;
            }
        });
        new JvmMemoryMetrics().bindTo(registry);
        gcMetrics.bindTo(registry);
        new JvmThreadMetrics().bindTo(registry);
        new ClassLoaderMetrics().bindTo(registry);
        new ProcessorMetrics().bindTo(registry);
        new UptimeMetrics().bindTo(registry);
        new JvmInfoMetrics().bindTo(registry);
        Gauge.builder("pacer.build.info", () -> 1)
            .description("Build of the running pacer; the value is always 1")
            .tags("version", version, "java", System.getProperty("java.version"))
            .strongReference(true)
            .register(registry);
        registry.getPrometheusRegistry().register(new LatencyHistogramCollector("pacer_decision_latency_seconds",
            "Bid request latency from ingress (decoded on the gateway thread) to the answer handed to its connection",
            decisions::cumulativeLatency));
    }

    /** The replier's listener: counts decisions and records their latency. */
    public DecisionMetrics decisions()
    {
        return decisions;
    }

    public PrometheusMeterRegistry registry()
    {
        return registry;
    }

    /** A monotonic counter read from {@code value} at scrape time. */
    public void counter(final String name, final String help, final String baseUnit, final LongSupplier value,
        final String... tags)
    {
        strongReferences.add(value);
        FunctionCounter.builder(name, value, v -> v.getAsLong())
            .description(help).baseUnit(baseUnit).tags(tags).register(registry);
    }

    /** A gauge read from {@code value} at scrape time. */
    public void gauge(final String name, final String help, final String baseUnit, final LongSupplier value,
        final String... tags)
    {
        Gauge.builder(name, value, v -> v.getAsLong())
            .description(help).baseUnit(baseUnit).tags(Tags.of(tags)).strongReference(true).register(registry);
    }

    /**
     * Registers the ring's and the shards' metrics. {@code shedBids} counts bids answered
     * OVERLOADED at ingress because the ring was full (they never reach the replier).
     */
    public void bindPipeline(final PacerPipeline pipeline, final LongSupplier shedBids)
    {
        for (final Reason reason : Reason.values())
        {
            if (reason == Reason.NULL_VAL)
            {
                continue;
            }
            final int code = reason.value();
            final LongSupplier count = reason == Reason.OVERLOADED ?
                () -> decisions.decisions(code) + shedBids.getAsLong() : () -> decisions.decisions(code);
            counter("pacer.decisions", "Answers to bid requests, by decision and reason", null, count,
                "decision", reason == Reason.NONE ? "bid" : "no_bid", "reason", reason.name().toLowerCase(Locale.ROOT));
        }
        final List<ShardView> shards = pipeline.shards();
        shardSum("pacer.spend.booked", "Spend booked from win notices, in micros of the campaigns' currencies",
            "micros", shards, c -> c.published(Counter.BOOKED_NANOS) / 1000, true);
        shardSum("pacer.wins.matched", "Win notices that matched an open reservation", null, shards,
            c -> c.published(Counter.MATCHED_WINS), true);
        shardSum("pacer.wins.late", "Win notices that matched no open reservation and no settled notice, booked anyway",
            null, shards, c -> c.published(Counter.LATE_WINS), true);
        shardSum("pacer.losses", "Loss notices that released a reservation", null, shards, c -> c.published(Counter.LOSSES), true);
        shardSum("pacer.losses.unmatched", "Loss notices that matched no open reservation", null, shards,
            c -> c.published(Counter.UNMATCHED_LOSSES), true);
        shardSum("pacer.notices.duplicate",
            "Win or loss notices for a request already settled within the dedupe window: changed nothing", null,
            shards, c -> c.published(Counter.DUPLICATE_NOTICES), true);
        shardSum("pacer.notices.conflicting", "Win notices after a settled loss for the same request: booked once",
            null, shards, c -> c.published(Counter.CONFLICTING_NOTICES), true);
        shardSum("pacer.reservations.expired", "Reservations released because no notice came in time", null, shards,
            c -> c.published(Counter.EXPIRED_RESERVATIONS), true);
        shardSum("pacer.notices.unknown.campaign", "Win or loss notices for a campaign the pacer does not know", null,
            shards, c -> c.published(Counter.UNKNOWN_CAMPAIGN_NOTICES), true);
        shardSum("pacer.notices.invalid", "Win notices with a negative price, ignored", null, shards,
            c -> c.published(Counter.INVALID_NOTICES), true);
        shardSum("pacer.campaign.updates", "Campaign definitions applied (admin API and campaigns file)", null, shards,
            c -> c.published(Counter.DEFINITIONS), true);
        shardSum("pacer.reservations.open", "Reservations waiting for their win or loss notice", null, shards,
            c -> c.published(Counter.OPEN_RESERVATIONS), false);
        shardSum("pacer.reserved", "Money held by open reservations, in micros", "micros", shards,
            c -> c.published(Counter.RESERVED_NANOS) / 1000, false);
        shardSum("pacer.campaigns.active", "Campaigns whose status is ACTIVE", null, shards,
            c -> c.published(Counter.ACTIVE_CAMPAIGNS), false);
        shardSum("pacer.campaigns.paused", "Campaigns whose status is PAUSED", null, shards,
            c -> c.published(Counter.PAUSED_CAMPAIGNS), false);
        gauge("pacer.ring.remaining", "Free slots in the ring", "slots", pipeline::remainingCapacity);
        gauge("pacer.ring.size", "Slots in the ring", "slots", () -> pipeline.config().ringSize());
        counter("pacer.shed", "Bid requests answered OVERLOADED without evaluation, by cause", null,
            shedBids, "cause", "ring_full");
        counter("pacer.shed", "Bid requests answered OVERLOADED without evaluation, by cause", null, () ->
        {
            long total = 0;
            for (final ShardView shard : shards)
            {
                total += shard.deadlineShed();
            }
            return total;
        }, "cause", "queue_deadline");
        counter("pacer.handler.exceptions", "Events whose handling threw; each was answered and skipped", null,
            pipeline::handlerFailures);
        for (final ShardView shard : shards)
        {
            final String index = Integer.toString(shard.shardIndex());
            counter("pacer.shard.batches", "Ring batches a shard has processed", null, shard::batches, "shard", index);
            counter("pacer.shard.batched.events", "Events in those batches (divide by batches for the mean batch size)",
                null, shard::batchedEvents, "shard", index);
            gauge("pacer.shard.queue.depth", "Events waiting for the shard when its last batch started", "events",
                shard::lastQueueDepth, "shard", index);
        }
    }

    private void shardSum(final String name, final String help, final String unit, final List<ShardView> shards,
        final ToLongFunction<ShardCounters> field, final boolean monotonic)
    {
        final LongSupplier sum = () ->
        {
            long total = 0;
            for (final ShardView shard : shards)
            {
                total += field.applyAsLong(shard.counters());
            }
            return total;
        };
        if (monotonic)
        {
            counter(name, help, unit, sum);
        }
        else
        {
            gauge(name, help, unit, sum);
        }
    }

    /** The exposition format asked for by an {@code Accept} header: OpenMetrics or Prometheus text. */
    public static String contentTypeFor(final String accept)
    {
        return accept != null && accept.contains("application/openmetrics-text") ?
            OPENMETRICS_TEXT : PROMETHEUS_TEXT;
    }

    /** The scrape, in {@code contentType} (one of {@link #contentTypeFor}'s answers). */
    public String scrape(final String contentType)
    {
        return registry.scrape(contentType);
    }

    @Override
    public void close()
    {
        gcMetrics.close();
        registry.close();
    }
}
