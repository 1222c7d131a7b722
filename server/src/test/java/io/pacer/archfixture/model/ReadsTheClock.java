package io.pacer.archfixture.model;

/** A planted violation for ArchitectureTest: "model" code that reads the wall clock. */
public final class ReadsTheClock
{
    private ReadsTheClock()
    {
    }

    public static long today()
    {
        return System.currentTimeMillis() / 86_400_000L;
    }
}
