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

    LoadClock(final long startNanos, final long warmupNanos, final long durationNanos, final long maxRequestsPerConnection)
    {
        this.startNanos = startNanos;
        this.measureFromNanos = startNanos + warmupNanos;
        this.sendUntilNanos = measureFromNanos + durationNanos;
        this.maxRequestsPerConnection = maxRequestsPerConnection;
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
