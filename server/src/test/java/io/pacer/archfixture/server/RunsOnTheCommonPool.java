package io.pacer.archfixture.server;

import java.util.List;
import java.util.concurrent.CompletableFuture;

/** Planted for ArchitectureTest: work on the JVM's common pool, whose threads the pacer does not name. */
final class RunsOnTheCommonPool
{
    private RunsOnTheCommonPool()
    {
    }

    static CompletableFuture<Integer> later()
    {
        return CompletableFuture.supplyAsync(() -> 42);
    }

    static long inParallel(final List<Long> values)
    {
        return values.parallelStream().mapToLong(Long::longValue).sum();
    }
}
