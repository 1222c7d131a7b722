package io.pacer.server.audit;

import java.time.Instant;

/**
 * An instant as {@link Instant#toString} writes it, made once a millisecond: a replay's rows and
 * lines come in time order, many to a millisecond, and making the text afresh for each was 16% of
 * an export's main thread.
 */
final class InstantText
{
    private long lastMillis;
    private String lastText;

    /** {@code epochMillis} as ISO-8601 text, {@code 2026-03-08T12:00:00.001Z}. */
    String of(final long epochMillis)
    {
        if (lastText == null || epochMillis != lastMillis)
        {
            lastMillis = epochMillis;
            lastText = Instant.ofEpochMilli(epochMillis).toString();
        }
        return lastText;
    }
}
