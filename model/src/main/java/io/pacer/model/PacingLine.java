package io.pacer.model;

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
    private long startMillis;
    private long endMillis;
    private long baseNanos;
    private long targetNanos;
    private boolean planned;

    /** Forget the line; the next {@link #replan} starts from what is committed. */
    public void reset()
    {
        planned = false;
    }

    /** Re-plans at {@code nowMillis} towards {@code targetNanos} at {@code endMillis}. */
    public void replan(final long nowMillis, final long endMillis, final long committedNanos, final long targetNanos)
    {
        final long base = planned ? Math.min(committedNanos, plannedNanos(nowMillis)) : committedNanos;
        this.startMillis = nowMillis;
        this.endMillis = endMillis;
        this.baseNanos = Math.min(base, targetNanos);
        this.targetNanos = targetNanos;
        this.planned = true;
    }

    /** Spend the line allows by {@code nowMillis}. */
    public long plannedNanos(final long nowMillis)
    {
        if (nowMillis >= endMillis || baseNanos >= targetNanos)
        {
            return Math.max(baseNanos, targetNanos);
        }
        final long elapsed = Math.max(0, nowMillis - startMillis);
        return baseNanos + Money.scale(targetNanos - baseNanos, elapsed, endMillis - startMillis);
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
        startMillis = in.readLong();
        endMillis = in.readLong();
        baseNanos = in.readLong();
        targetNanos = in.readLong();
        planned = in.readBoolean();
    }

    /** True when {@code committedNanos} is already past the line at {@code nowMillis}. */
    public boolean isAhead(final long nowMillis, final long committedNanos)
    {
        return committedNanos > plannedNanos(nowMillis);
    }
}
