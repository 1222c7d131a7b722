package io.pacer.model;

import java.time.Instant;

/**
 * Gives the instant it gave last when asked for the same one again: campaigns read in a row
 * (from a snapshot or a campaigns file) mostly share their flight's start or end, and a million
 * of them then share a few instants instead of holding two each (48 MB). Read from text, the
 * same text as last time is not parsed again. Instants are immutable, so sharing one is safe; a
 * race between threads only costs a new instant.
 */
final class InstantMemo
{
    /** Text and the instant it reads as, published together. */
    private static final class Parsed
    {
        final String text;
        final Instant instant;

        Parsed(final String text, final Instant instant)
        {
            this.text = text;
            this.instant = instant;
        }
    }

    private volatile Instant last = Instant.EPOCH;
    private volatile Parsed parsed = new Parsed("", null);

    /**
     * The ISO-8601 instant {@code text[offset, offset + length)} reads as ({@link
     * CampaignDefinitionParser#instantOrNull}), or null if it is not one.
     */
    Instant parse(final char[] text, final int offset, final int length)
    {
        final Parsed memo = parsed;
        if (CampaignStreamReader.sameText(memo.text, text, offset, length))
        {
            return memo.instant;
        }
        final String string = new String(text, offset, length);
        final Instant instant = CampaignDefinitionParser.instantOrNull(string);
        if (instant == null)
        {
            return null;
        }
        final Instant shared = share(instant);
        parsed = new Parsed(string, shared);
        return shared;
    }

    /** {@code instant}, or the equal one given last. */
    private Instant share(final Instant instant)
    {
        final Instant memo = last;
        if (memo.equals(instant))
        {
            return memo;
        }
        last = instant;
        return instant;
    }
    /** {@link Instant#ofEpochSecond(long, long)}. */
    Instant of(final long epochSecond, final int nanos)
    {
        final Instant memo = last;
        if (memo.getEpochSecond() == epochSecond && memo.getNano() == nanos)
        {
            return memo;
        }
        final Instant instant = Instant.ofEpochSecond(epochSecond, nanos);
        last = instant;
        return instant;
    }
}
