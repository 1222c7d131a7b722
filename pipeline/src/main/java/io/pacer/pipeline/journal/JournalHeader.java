package io.pacer.pipeline.journal;

import io.pacer.model.PacingPolicy;

/**
 * What a segment's header says the decisions in it depended on.
 *
 * <p>{@link #equals} and {@link #hashCode} are written out (as {@link PacingPolicy}'s are): a
 * record's own are bootstrapped through {@code java.lang.runtime.ObjectMethods} on first use, and
 * a replay comparing its first two segments' headers spent ~40 ms spinning their method handles.
 */
public record JournalHeader(int shards, PacingPolicy policy)
{
    @Override
    public boolean equals(final Object other)
    {
        return other instanceof JournalHeader that && shards == that.shards && policy.equals(that.policy);
    }

    @Override
    public int hashCode()
    {
        return 31 * shards + policy.hashCode();
    }
}
