package io.pacer.model;

import io.pacer.units.CurrencyNanos;
import io.pacer.units.DurationMillis;
import io.pacer.units.EpochMillis;
import io.pacer.units.Units;

/**
 * The arithmetic of one straight line of planned cumulative spend: it starts at {@code fromNanos}
 * at {@code fromMillis} and reaches {@code targetNanos} at {@code endMillis}.
 *
 * <p>A line's state is where it starts, two numbers kept in the campaign's {@link CampaignBook}
 * (a decision then reads one object, not three). Its end and target are the campaign's own, the
 * flight's end and budget or the day's end and daily cap, which never move while a line stands:
 * a redefinition or a new day forgets the line.
 *
 * <p>Re-planning spreads what remains over the time that remains. A campaign that fell behind
 * (quiet traffic, released reservations) is re-based to what it has actually committed, so it
 * catches up by a slightly steeper line rather than a burst; one that ran ahead keeps its old
 * line, so it has to wait for the plan to catch up with it.
 */
final class PacingLine
{
    private PacingLine()
    {
    }

    /**
     * Where a line re-planned at {@code nowMillis} starts: what is committed, or where the standing
     * line (if {@code planned}) is by now if that is lower; never above the target.
     */
    static @CurrencyNanos long replannedFromNanos(final boolean planned, final @EpochMillis long fromMillis,
        final @CurrencyNanos long fromNanos, final @EpochMillis long endMillis, final @CurrencyNanos long targetNanos,
        final @EpochMillis long nowMillis, final @CurrencyNanos long committedNanos)
    {
        final @CurrencyNanos long base = planned ?
            Math.min(committedNanos, plannedNanos(fromMillis, fromNanos, endMillis, targetNanos, nowMillis)) : committedNanos;
        return Math.min(base, targetNanos);
    }

    /** Spend the line allows by {@code nowMillis}. */
    static @CurrencyNanos long plannedNanos(final @EpochMillis long fromMillis, final @CurrencyNanos long fromNanos,
        final @EpochMillis long endMillis, final @CurrencyNanos long targetNanos, final @EpochMillis long nowMillis)
    {
        if (nowMillis >= endMillis || fromNanos >= targetNanos)
        {
            return Math.max(fromNanos, targetNanos);
        }
        final @DurationMillis long elapsed = Math.max(Units.ZERO_MILLIS, Units.between(fromMillis, nowMillis));
        return fromNanos + Money.scale(targetNanos - fromNanos, elapsed, Units.between(fromMillis, endMillis));
    }
}
