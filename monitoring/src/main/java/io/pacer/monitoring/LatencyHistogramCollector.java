package io.pacer.monitoring;

import io.prometheus.metrics.model.registry.Collector;
import io.prometheus.metrics.model.snapshots.ClassicHistogramBuckets;
import io.prometheus.metrics.model.snapshots.HistogramSnapshot;
import io.prometheus.metrics.model.snapshots.MetricSnapshot;
import io.prometheus.metrics.model.snapshots.Unit;
import org.HdrHistogram.Histogram;

import java.util.function.Supplier;

/**
 * Exposes an HdrHistogram of nanoseconds as a Prometheus classic histogram in seconds, built at
 * scrape time, so the hot path records into HdrHistogram and never into Prometheus. Bucket counts
 * are exact up to HdrHistogram's 3 significant digits; the sum is count times mean.
 */
public final class LatencyHistogramCollector implements Collector
{
    /** Upper bounds, seconds: 25 us .. 1 s, then +Inf. */
    static final double[] BOUNDS = {
        0.000025, 0.00005, 0.0001, 0.00025, 0.0005, 0.00075, 0.001, 0.002, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 1.0,
        Double.POSITIVE_INFINITY};

    private final String name;
    private final String help;
    private final Supplier<Histogram> source;

    public LatencyHistogramCollector(final String name, final String help, final Supplier<Histogram> source)
    {
        this.name = name;
        this.help = help;
        this.source = source;
    }

    @Override
    public MetricSnapshot collect()
    {
        final Histogram histogram = source.get();
        final long[] counts = new long[BOUNDS.length];
        long below = 0;
        for (int i = 0; i < BOUNDS.length - 1; i++)
        {
            final long cumulative = histogram.getCountBetweenValues(0, (long)(BOUNDS[i] * 1e9));
            counts[i] = cumulative - below;
            below = cumulative;
        }
        counts[BOUNDS.length - 1] = histogram.getTotalCount() - below;
        return HistogramSnapshot.builder()
            .name(name)
            .help(help)
            .unit(Unit.SECONDS)
            .dataPoint(HistogramSnapshot.HistogramDataPointSnapshot.builder()
                .classicHistogramBuckets(ClassicHistogramBuckets.of(BOUNDS, counts))
                .sum(histogram.getTotalCount() == 0 ? 0 : histogram.getMean() * histogram.getTotalCount() / 1e9)
                .build())
            .build();
    }

    @Override
    public String getPrometheusName()
    {
        return name;
    }
}
