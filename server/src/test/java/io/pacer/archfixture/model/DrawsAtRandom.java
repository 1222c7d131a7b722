package io.pacer.archfixture.model;

import java.util.concurrent.ThreadLocalRandom;

/** A planted violation for ArchitectureTest: "model" code with unseeded randomness. */
public final class DrawsAtRandom
{
    private DrawsAtRandom()
    {
    }

    public static boolean coin()
    {
        return ThreadLocalRandom.current().nextBoolean();
    }
}
