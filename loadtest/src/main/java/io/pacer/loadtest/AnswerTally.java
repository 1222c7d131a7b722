package io.pacer.loadtest;

import org.HdrHistogram.Histogram;

import java.util.concurrent.TimeUnit;

/**
 * What one writer (a connection, or an event-loop thread) counted of the answers it saw: plain
 * fields, no sharing; a run's totals are the tallies added together once the writers are done.
 */
final class AnswerTally
{
    final Histogram latencyNanos = new Histogram(TimeUnit.SECONDS.toNanos(60), 3);
    final long[] decisionsByReason = new long[8];
    long answers;
    long measuredAnswers;
    long wins;
    long losses;

    /** An answer inside the measured window: its latency and its reason code are recorded. */
    void measure(final long latency, final int reason)
    {
        measuredAnswers++;
        latencyNanos.recordValue(Math.min(Math.max(0, latency), latencyNanos.getHighestTrackableValue()));
        if (reason >= 0 && reason < decisionsByReason.length)
        {
            decisionsByReason[reason]++;
        }
    }

    /** Adds this tally into {@code total}; call once its writer is done, or on its writer's thread. */
    void addTo(final AnswerTally total)
    {
        total.latencyNanos.add(latencyNanos);
        for (int r = 0; r < decisionsByReason.length; r++)
        {
            total.decisionsByReason[r] += decisionsByReason[r];
        }
        total.answers += answers;
        total.measuredAnswers += measuredAnswers;
        total.wins += wins;
        total.losses += losses;
    }
}
