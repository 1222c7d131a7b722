package io.pacer.loadtest;

import com.fasterxml.jackson.databind.json.JsonMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.pacer.wire.Reason;
import org.HdrHistogram.Histogram;

import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;

/** What a load run measured: throughput, latency percentiles, decisions and every error. */
public final class LoadReport
{
    private static final double[] PERCENTILES = {50, 90, 99, 99.9, 99.99};

    private final String mode;
    private final double seconds;
    private final long sent;
    private final long answers;
    private final long measuredAnswers;
    private final long wins;
    private final long losses;
    private final Histogram latencyNanos;
    private final long[] decisionsByReason;
    private final Map<String, Long> errors;

    LoadReport(
        final String mode, final double seconds, final long sent, final long answers, final long measuredAnswers,
        final long wins, final long losses, final Histogram latencyNanos, final long[] decisionsByReason,
        final Map<String, Long> errors)
    {
        this.mode = mode;
        this.seconds = seconds;
        this.sent = sent;
        this.answers = answers;
        this.measuredAnswers = measuredAnswers;
        this.wins = wins;
        this.losses = losses;
        this.latencyNanos = latencyNanos;
        this.decisionsByReason = decisionsByReason;
        this.errors = errors;
    }

    /** Answers per second within the measured window. */
    public double throughput()
    {
        return measuredAnswers / seconds;
    }

    public long sent()
    {
        return sent;
    }

    public long answers()
    {
        return answers;
    }

    public long measuredAnswers()
    {
        return measuredAnswers;
    }

    public long wins()
    {
        return wins;
    }

    public long losses()
    {
        return losses;
    }

    /** Measured decisions with this reason ({@link Reason#NONE}: BIDs). */
    public long decisions(final Reason reason)
    {
        return decisionsByReason[reason.value()];
    }

    /** Latency at a percentile, in nanoseconds. */
    public long latencyNanosAt(final double percentile)
    {
        return latencyNanos.getValueAtPercentile(percentile);
    }

    public long maxLatencyNanos()
    {
        return latencyNanos.getMaxValue();
    }

    public Histogram histogram()
    {
        return latencyNanos;
    }

    /** Every kind of error seen, with its count; empty when the run was clean. */
    public Map<String, Long> errors()
    {
        final Map<String, Long> nonZero = new LinkedHashMap<>();
        errors.forEach((k, v) ->
        {
            if (v > 0)
            {
                nonZero.put(k, v);
            }
        });
        return nonZero;
    }

    public boolean clean()
    {
        return errors().isEmpty();
    }

    public String toText()
    {
        final StringBuilder text = new StringBuilder(512);
        text.append(String.format(Locale.ROOT, "mode        %s%n", mode));
        text.append(String.format(Locale.ROOT, "throughput  %,.0f answers/s (%,d answers in %.1f s measured; %,d sent in all)%n",
            throughput(), measuredAnswers, seconds, sent));
        text.append("latency    ");
        for (final double p : PERCENTILES)
        {
            text.append(String.format(Locale.ROOT, " p%s %s", trim(p), micros(latencyNanosAt(p))));
        }
        text.append(String.format(Locale.ROOT, " max %s%n", micros(maxLatencyNanos())));
        text.append("decisions  ");
        for (final Reason reason : Reason.values())
        {
            if (reason != Reason.NULL_VAL && decisionsByReason[reason.value()] > 0)
            {
                text.append(' ').append(reason == Reason.NONE ? "BID" : reason.name()).append(' ')
                    .append(String.format(Locale.ROOT, "%,d", decisionsByReason[reason.value()]));
            }
        }
        text.append(String.format(Locale.ROOT, "%nnotices     wins %,d losses %,d%n", wins, losses));
        text.append("errors      ").append(clean() ? "none" : errors().toString()).append(System.lineSeparator());
        return text.toString();
    }

    public String toJson()
    {
        final ObjectNode root = JsonMapper.builder().build().createObjectNode();
        root.put("mode", mode);
        root.put("seconds", seconds);
        root.put("throughputPerSecond", Math.round(throughput()));
        root.put("sent", sent);
        root.put("answers", answers);
        root.put("measuredAnswers", measuredAnswers);
        final ObjectNode latency = root.putObject("latencyMicros");
        for (final double p : PERCENTILES)
        {
            latency.put("p" + trim(p), latencyNanosAt(p) / 1000.0);
        }
        latency.put("max", maxLatencyNanos() / 1000.0);
        final ObjectNode decisions = root.putObject("decisions");
        for (final Reason reason : Reason.values())
        {
            if (reason != Reason.NULL_VAL)
            {
                decisions.put(reason == Reason.NONE ? "BID" : reason.name(), decisionsByReason[reason.value()]);
            }
        }
        root.put("wins", wins);
        root.put("losses", losses);
        final ObjectNode errorNode = root.putObject("errors");
        errors().forEach(errorNode::put);
        return root.toString();
    }

    private static String trim(final double p)
    {
        return p == Math.rint(p) ? Long.toString((long)p) : Double.toString(p);
    }

    private static String micros(final long nanos)
    {
        return nanos >= 1_000_000 ? String.format(Locale.ROOT, "%.2fms", nanos / 1e6) :
            String.format(Locale.ROOT, "%.0fus", nanos / 1e3);
    }
}
