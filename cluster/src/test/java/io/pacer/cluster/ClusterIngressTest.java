package io.pacer.cluster;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/** A node's batch numbers: every life numbers above the last, whatever its clock says. */
class ClusterIngressTest
{
    private static ClusterSettings settings(final Path dir)
    {
        return new ClusterSettings(0, List.of("127.0.0.1"), 20_000, dir.toFile(), dir.resolve("aeron").toString(),
            1_000, 100, 500, 10_000, 1 << 20, 16 << 20, 100, "backoff", false, 0);
    }

    @Test
    void shouldNumberEachLifesBatchesAboveThePreviousLifesEvenIfTheClockSteppedBack(@TempDir final Path dir)
        throws Exception
    {
        final long first = ClusterIngress.firstBatch(settings(dir));
        assertThat(first).isGreaterThanOrEqualTo((System.currentTimeMillis() - 1_000) << 20);
        assertThat(ClusterIngress.firstBatch(settings(dir))).isGreaterThanOrEqualTo(first + (1L << 40));
        // a previous life whose clock ran a year ahead
        final long ahead = (System.currentTimeMillis() + 365L * 86_400_000) << 20;
        Files.writeString(dir.resolve("node-batches.first"), Long.toString(ahead));
        assertThat(ClusterIngress.firstBatch(settings(dir))).isEqualTo(ahead + (1L << 40));
    }
}
