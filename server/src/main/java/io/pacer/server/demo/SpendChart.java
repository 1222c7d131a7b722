package io.pacer.server.demo;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;

/**
 * A self-contained HTML page with one SVG chart per campaign: cumulative spend against its plan
 * over the flight. No scripts, no external resources: it opens anywhere.
 */
public final class SpendChart
{
    private static final int WIDTH = 640;
    private static final int HEIGHT = 260;
    private static final int PAD = 48;

    /** One campaign's series. */
    public record Series(String title, long budgetMicros, long planTotalMicros, double[] seconds, long[] spentMicros)
    {
    }

    private SpendChart()
    {
    }

    public static void write(final Path file, final String heading, final double flightSeconds, final List<Series> campaigns)
        throws IOException
    {
        final StringBuilder html = new StringBuilder(16_384);
        html.append("<!DOCTYPE html><html><head><meta charset=\"utf-8\"><title>").append(heading)
            .append("</title><style>body{font-family:sans-serif;margin:2em}svg{background:#fafafa;border:1px solid #ddd}")
            .append(".spent{fill:none;stroke:#1f77b4;stroke-width:2}.plan{fill:none;stroke:#ff7f0e;stroke-dasharray:6 4}")
            .append(".budget{stroke:#d62728;stroke-dasharray:2 3}text{font-size:12px}</style></head><body><h1>")
            .append(heading).append("</h1><p>Blue: cumulative spend (from the admin API). Orange dashes: the plan. ")
            .append("Red dots: the budget.</p>");
        for (final Series s : campaigns)
        {
            html.append("<h2>").append(s.title()).append("</h2>");
            appendSvg(html, flightSeconds, s);
        }
        html.append("</body></html>\n");
        Files.writeString(file, html.toString(), StandardCharsets.UTF_8);
    }

    private static void appendSvg(final StringBuilder html, final double flightSeconds, final Series s)
    {
        final double top = Math.max(1, s.budgetMicros()) * 1.05;
        html.append(String.format(Locale.ROOT, "<svg width=\"%d\" height=\"%d\" viewBox=\"0 0 %d %d\">", WIDTH, HEIGHT, WIDTH, HEIGHT));
        html.append(String.format(Locale.ROOT, "<line x1=\"%d\" y1=\"%d\" x2=\"%d\" y2=\"%d\" stroke=\"#999\"/>",
            PAD, HEIGHT - PAD, WIDTH - 10, HEIGHT - PAD));
        html.append(String.format(Locale.ROOT, "<line x1=\"%d\" y1=\"10\" x2=\"%d\" y2=\"%d\" stroke=\"#999\"/>",
            PAD, PAD, HEIGHT - PAD));
        final double budgetY = y((double)s.budgetMicros(), top);
        html.append(String.format(Locale.ROOT, "<line class=\"budget\" x1=\"%d\" y1=\"%.1f\" x2=\"%d\" y2=\"%.1f\"/>",
            PAD, budgetY, WIDTH - 10, budgetY));
        html.append(String.format(Locale.ROOT, "<text x=\"4\" y=\"%.1f\">%.2f</text>", budgetY + 4, s.budgetMicros() / 1e6));
        html.append(String.format(Locale.ROOT, "<text x=\"%d\" y=\"%d\">0 s</text><text x=\"%d\" y=\"%d\">%.0f s</text>",
            PAD, HEIGHT - PAD + 16, WIDTH - 40, HEIGHT - PAD + 16, flightSeconds));
        if (s.planTotalMicros() > 0)
        {
            html.append(String.format(Locale.ROOT, "<polyline class=\"plan\" points=\"%.1f,%.1f %.1f,%.1f\"/>",
                x(0, flightSeconds), y(0, top), x(flightSeconds, flightSeconds), y((double)s.planTotalMicros(), top)));
        }
        html.append("<polyline class=\"spent\" points=\"");
        for (int i = 0; i < s.seconds().length; i++)
        {
            html.append(String.format(Locale.ROOT, "%.1f,%.1f ", x(s.seconds()[i], flightSeconds), y((double)s.spentMicros()[i], top)));
        }
        html.append("\"/></svg>");
    }

    private static double x(final double seconds, final double flightSeconds)
    {
        return PAD + (WIDTH - PAD - 10) * Math.min(1, Math.max(0, seconds / flightSeconds));
    }

    private static double y(final double micros, final double top)
    {
        return HEIGHT - PAD - (HEIGHT - PAD - 10) * micros / top;
    }
}
