package io.pacer.model;

import io.pacer.units.CurrencyNanos;
import io.pacer.units.DurationMillis;
import io.pacer.units.EpochMillis;
import io.pacer.units.Units;

/**
 * One straight line of planned cumulative spend, re-planned at slot boundaries: it starts at
 * {@code baseNanos} at {@code startMillis} and reaches {@code targetNanos} at {@code endMillis}.
 *
 * <p>Re-planning spreads what remains over the time that remains. A campaign that fell behind
 * (quiet traffic, released reservations) is re-based to what it has actually committed, so it
 * catches up by a slightly steeper line rather than a burst; one that ran ahead keeps its old
 * line, so it has to wait for the plan to catch up with it.
 */
public final class PacingLine
{
    private @EpochMillis long startMillis;
    private @EpochMillis long endMillis;
    private @CurrencyNanos long baseNanos;
    private @CurrencyNanos long targetNanos;
    private boolean planned;

    /** Forget the line; the next {@link #replan} starts from what is committed. */
    public void reset()
    {
        planned = false;
    }

    /** Re-plans at {@code nowMillis} towards {@code targetNanos} at {@code endMillis}. */
    public void replan(final @EpochMillis long nowMillis, final @EpochMillis long endMillis,
        final @CurrencyNanos long committedNanos, final @CurrencyNanos long targetNanos)
    {
        final @CurrencyNanos long base = planned ? Math.min(committedNanos, plannedNanos(nowMillis)) : committedNanos;
        this.startMillis = nowMillis;
        this.endMillis = endMillis;
        this.baseNanos = Math.min(base, targetNanos);
        this.targetNanos = targetNanos;
        this.planned = true;
    }

    /** Spend the line allows by {@code nowMillis}. */
    public @CurrencyNanos long plannedNanos(final @EpochMillis long nowMillis)
    {
        if (nowMillis >= endMillis || baseNanos >= targetNanos)
        {
            return Math.max(baseNanos, targetNanos);
        }
        final @DurationMillis long elapsed = Math.max(Units.ZERO_MILLIS, Units.between(startMillis, nowMillis));
        return baseNanos + Money.scale(targetNanos - baseNanos, elapsed, Units.between(startMillis, endMillis));
    }

    void write(final java.io.DataOutput out) throws java.io.IOException
    {
        out.writeLong(startMillis);
        out.writeLong(endMillis);
        out.writeLong(baseNanos);
        out.writeLong(targetNanos);
        out.writeBoolean(planned);
    }

    void read(final java.io.DataInput in) throws java.io.IOException
    {
        startMillis = Units.epochMillis(in.readLong());
        endMillis = Units.epochMillis(in.readLong());
        baseNanos = Units.currencyNanos(in.readLong());
        targetNanos = Units.currencyNanos(in.readLong());
        planned = in.readBoolean();
    }

    /** True when {@code committedNanos} is already past the line at {@code nowMillis}. */
    public boolean isAhead(final @EpochMillis long nowMillis, final @CurrencyNanos long committedNanos)
    {
        return committedNanos > plannedNanos(nowMillis);
    }
}
