package io.pacer.monitoring;

import io.pacer.pipeline.Replier;
import org.HdrHistogram.Histogram;
import org.HdrHistogram.SingleWriterRecorder;

import java.util.concurrent.TimeUnit;

/**
 * Counts every answered bid by reason and records its latency from ingress (the gateway thread
 * stamping it) to the answer being handed to its connection, on the replier thread: plain
 * single-writer counters and an HdrHistogram {@link SingleWriterRecorder}, nothing shared.
 * Scrapes read them through {@link #decisions} and {@link #cumulativeLatency}.
 */
public final class DecisionMetrics implements Replier.DecisionListener
{
    private final SingleWriterCounters byReason = new SingleWriterCounters(8);
    private final SingleWriterRecorder recorder = new SingleWriterRecorder(TimeUnit.SECONDS.toNanos(10), 3);
    private final Histogram cumulative = new Histogram(TimeUnit.SECONDS.toNanos(10), 3);
    private Histogram interval;

    /** Ingress times of the bids answered in the current batch, recorded when it is handed off. */
    private long[] batchIngressNanos = new long[1024];
    private int batchDecisions;

    @Override
    public void onDecision(final int reason, final long ingressNanos)
    {
        byReason.increment(reason);
        if (batchDecisions == batchIngressNanos.length)
        {
            // grows to the largest batch once (at most the ring's size), then never again
            batchIngressNanos = java.util.Arrays.copyOf(batchIngressNanos, batchDecisions * 2);
        }
        batchIngressNanos[batchDecisions++] = ingressNanos;
    }

    @Override
    public void onBatchAnswered()
    {
        if (batchDecisions == 0)
        {
            return;
        }
        final long now = System.nanoTime();
        final long highest = cumulative.getHighestTrackableValue();
        for (int i = 0; i < batchDecisions; i++)
        {
            recorder.recordValue(Math.max(0, Math.min(now - batchIngressNanos[i], highest)));
        }
        batchDecisions = 0;
    }

    /** Answered bids with this reason code (0: BID). */
    public long decisions(final int reason)
    {
        return byReason.get(reason);
    }

    /** Every latency recorded so far, in nanoseconds; call from one reader thread at a time. */
    public synchronized Histogram cumulativeLatency()
    {
        interval = recorder.getIntervalHistogram(interval);
        cumulative.add(interval);
        return cumulative;
    }
}
