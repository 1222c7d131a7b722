package io.pacer.archfixture.pipeline;

/** A planted violation for ArchitectureTest: a "pipeline" handler that takes time from the wall clock, not the event. */
public final class HandlerThatReadsTheClock
{
    private long lastSeenMillis;

    public void onEvent()
    {
        lastSeenMillis = System.currentTimeMillis();
    }

    public long lastSeenMillis()
    {
        return lastSeenMillis;
    }
}
