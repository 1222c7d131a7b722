package io.pacer.pipeline;

import com.google.errorprone.annotations.Immutable;
import io.pacer.model.PacingPolicy;
import io.pacer.units.DurationMillis;
import io.pacer.units.Units;

/**
 * The pipeline's shape.
 *
 * @param shards             pacing handlers, a power of two
 * @param ringSize           ring slots, a power of two
 * @param waitStrategy       one of {@link WaitStrategies#NAMES}
 * @param tickIntervalMillis how often time is published into the ring
 * @param policy             pacing parameters
 * @param queueDeadlineNanos a bid that has waited longer than this in the ring when its shard
 *                           comes to it is answered OVERLOADED without evaluation; 0: no deadline
 * @param threading          which threads run the consumers
 */
@Immutable
public record PipelineConfig(
    int shards, int ringSize, String waitStrategy, @DurationMillis long tickIntervalMillis, PacingPolicy policy,
    long queueDeadlineNanos,
    ThreadingMode threading)
{
    /** The threading mode tests run in: {@code -Dpacer.pipeline.threading=...}, shared by default. */
    public static final ThreadingMode TEST_THREADING =
        ThreadingMode.fromName(System.getProperty("pacer.pipeline.threading", "shared"));

    /** Without a queue deadline. */
    public PipelineConfig(
        final int shards, final int ringSize, final String waitStrategy, final @DurationMillis long tickIntervalMillis,
        final PacingPolicy policy)
    {
        this(shards, ringSize, waitStrategy, tickIntervalMillis, policy, 0, TEST_THREADING);
    }

    public PipelineConfig
    {
        if (shards < 1 || Integer.bitCount(shards) != 1)
        {
            throw new IllegalArgumentException("shards must be a power of two >= 1, was " + shards);
        }
        if (ringSize < 2 || Integer.bitCount(ringSize) != 1)
        {
            throw new IllegalArgumentException("ringSize must be a power of two >= 2, was " + ringSize);
        }
        try
        {
            WaitStrategies.fromName(waitStrategy);
        }
        catch (final IllegalArgumentException ex)
        {
            throw new IllegalArgumentException("waitStrategy " + ex.getMessage(), ex);
        }
        if (tickIntervalMillis <= 0)
        {
            throw new IllegalArgumentException("tickIntervalMillis must be > 0, was " + tickIntervalMillis);
        }
        if (threading == null)
        {
            throw new IllegalArgumentException("threading must be one of " + ThreadingMode.NAMES);
        }
        if (queueDeadlineNanos < 0)
        {
            throw new IllegalArgumentException("queueDeadlineNanos must be >= 0, was " + queueDeadlineNanos);
        }
    }

    /** The same shape in another threading mode. */
    public PipelineConfig withThreading(final ThreadingMode mode)
    {
        return new PipelineConfig(shards, ringSize, waitStrategy, tickIntervalMillis, policy, queueDeadlineNanos, mode);
    }

    /**
     * A small pipeline for tests: 2 shards, 1024 slots, blocking wait, 10 ms ticks, in
     * {@link #TEST_THREADING}.
     */
    public static PipelineConfig forTests()
    {
        return new PipelineConfig(2, 1024, "blocking", Units.durationMillis(10), PacingPolicy.DEFAULT);
    }
}
