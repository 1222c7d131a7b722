package io.pacer.archfixture.server;

import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;

/** Planted for ArchitectureTest: threads made outside PacerThreads, named by the JDK or by hand. */
final class StartsAnUnnamedThread
{
    private StartsAnUnnamedThread()
    {
    }

    static Thread byHand(final Runnable task)
    {
        return new Thread(task, "worker");
    }

    static ExecutorService pool()
    {
        return Executors.newFixedThreadPool(2);
    }
}
