package io.pacer.monitoring;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;

/**
 * A fixed set of counters written by exactly one thread and read by any: increments are opaque
 * stores (no lock, no CAS, no fence on x86), reads are opaque loads that never tear and see
 * every increment eventually. The cheapest correct way to count on a hot path.
 */
public final class SingleWriterCounters
{
    private static final VarHandle ELEMENT = MethodHandles.arrayElementVarHandle(long[].class);

    private final long[] values;

    public SingleWriterCounters(final int size)
    {
        values = new long[size];
    }

    /** Owning thread only. */
    public void increment(final int index)
    {
        add(index, 1);
    }

    /** Owning thread only. */
    public void add(final int index, final long delta)
    {
        ELEMENT.setOpaque(values, index, (long)ELEMENT.getOpaque(values, index) + delta);
    }

    /** Any thread. */
    public long get(final int index)
    {
        return (long)ELEMENT.getOpaque(values, index);
    }

    public int size()
    {
        return values.length;
    }
}
