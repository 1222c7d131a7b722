package io.pacer.model;

import java.time.Instant;

/**
 * Gives the instant it gave last when asked for the same one again: campaigns read in a row
 * (from a snapshot or a campaigns file) mostly share their flight's start or end, and a million
 * of them then share a few instants instead of holding two each (48 MB). Instants are immutable, so sharing one is safe; a race
 * between threads only costs a new instant.
 */
final class InstantMemo
{
    private volatile Instant last = Instant.EPOCH;

    /** {@code instant}, or the equal one given last. */
    Instant share(final Instant instant)
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
