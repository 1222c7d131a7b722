package io.pacer.server;

import org.junit.jupiter.api.Test;

import java.util.Set;
import java.util.stream.Collectors;

import static io.pacer.server.TestPacer.asap;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * A running server's thread dump reads as docs/architecture.md says: every thread it started is
 * named by its role, {@code pacer-*} (they come from {@code PacerThreads} or, for Netty's loops,
 * from {@code Transport}). Two threads the JDK starts for the APIs the server calls are the JDK's
 * to name: {@code FileSystemWatchService} (the campaigns file's {@code WatchService}) and
 * {@code CompletableFutureDelayScheduler} ({@code orTimeout} on admin requests).
 */
class ThreadNamesIntegrationTest
{
    private static final Set<String> JDK_NAMED = Set.of("FileSystemWatchService", "CompletableFutureDelayScheduler");

    @Test
    void shouldNameEveryThreadItStartsByItsRole() throws Exception
    {
        final Set<Thread> before = Thread.getAllStackTraces().keySet();
        try (TestPacer pacer = TestPacer.start(asap(1, 1_000_000)))
        {
            try (GatewayClient client = pacer.client())
            {
                client.bid(1, 1, 1_000);
                assertThat(client.send().read(1)).hasSize(1);
            }

            final Set<String> started = Thread.getAllStackTraces().keySet().stream()
                .filter(thread -> !before.contains(thread) && thread.isAlive())
                // the HttpClient threads are this test's own client's
                .filter(thread -> !JDK_NAMED.contains(thread.getName()) && !thread.getName().startsWith("HttpClient-"))
                .map(Thread::getName)
                .collect(Collectors.toSet());

            assertThat(started)
                .isNotEmpty()
                .allMatch(name -> name.startsWith("pacer-"), "named pacer-<role>")
                .anyMatch(name -> name.startsWith("pacer-gateway-"))
                .anyMatch(name -> name.startsWith("pacer-admin-"))
                .anyMatch(name -> name.startsWith("pacer-journal-fsync-"))
                .anyMatch(name -> name.startsWith("pacer-campaigns-watcher-"));
        }
    }
}
