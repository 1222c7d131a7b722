package io.pacer.loadtest;

/**
 * The time plan of one load run, shared read-only by every connection: when it started, when
 * measurement begins (after warm-up), when sending stops.
 */
final class LoadClock
{
    private final long startNanos;
    private final long measureFromNanos;
    private final long sendUntilNanos;
    private final long maxRequestsPerConnection;
    private final long runId;

    LoadClock(final long startNanos, final long warmupNanos, final long durationNanos, final long maxRequestsPerConnection)
    {
        this.startNanos = startNanos;
        this.measureFromNanos = startNanos + warmupNanos;
        this.sendUntilNanos = measureFromNanos + durationNanos;
        this.maxRequestsPerConnection = maxRequestsPerConnection;
        // 19 bits that differ between runs (the wall clock's milliseconds), so that two runs against
        // one server do not reuse request ids within its notice dedupe window
        this.runId = System.currentTimeMillis() & ((1L << 19) - 1);
    }

    /** What makes this run's request ids its own: 19 bits. */
    long runId()
    {
        return runId;
    }

    long nanoTime()
    {
        return System.nanoTime();
    }

    long startNanos()
    {
        return startNanos;
    }

    long measureFromNanos()
    {
        return measureFromNanos;
    }

    long sendUntilNanos()
    {
        return sendUntilNanos;
    }

    long maxRequestsPerConnection()
    {
        return maxRequestsPerConnection;
    }
}
