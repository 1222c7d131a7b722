package io.pacer.pipeline;

import io.pacer.model.PacingPolicy;
import io.pacer.pipeline.journal.SnapshotStore;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;

import static org.assertj.core.api.Assertions.assertThat;

/** Snapshot files as {@link SnapshotStore} writes them (versions written before are in {@code LegacySnapshotTest}). */
class SnapshotFilesTest
{
    private static final PacingPolicy POLICY = PacingPolicy.DEFAULT;

    @TempDir
    Path dir;

    @Test
    void shouldReadBackEveryShardStateItWrote()
    {
        final byte[] large = new byte[200_000];
        Arrays.fill(large, (byte)7);
        SnapshotStore.write(dir, snapshot(42, new byte[] {1, 2, 3}, new byte[0], large));

        final SnapshotStore.Loaded loaded = SnapshotStore.newestValid(dir, 3, POLICY);

        assertThat(loaded.coveredSequence()).isEqualTo(42);
        assertThat(loaded.shardStateBytes()).isDeepEqualTo(new byte[][] {{1, 2, 3}, {}, large});
    }

    @Test
    void shouldDeleteASnapshotCutShortWhileItWasWrittenAndKeepTheWholeOnes() throws Exception
    {
        final Path whole = SnapshotStore.write(dir, snapshot(10, new byte[] {1}));
        final Path cut = Files.write(dir.resolve(String.format("snapshot-%020d.bin.tmp", 20)), new byte[] {9, 9});

        SnapshotStore.deleteUnfinished(dir);

        assertThat(cut).doesNotExist();
        assertThat(whole).exists();
        assertThat(SnapshotStore.newestValid(dir, 1, POLICY).coveredSequence()).isEqualTo(10);
    }

    @Test
    void shouldFallBackToAnOlderSnapshotWhenTheNewestIsDamaged() throws Exception
    {
        SnapshotStore.write(dir, snapshot(10, new byte[] {1}));
        final Path newest = SnapshotStore.write(dir, snapshot(20, new byte[] {2}));
        final byte[] damaged = Files.readAllBytes(newest);
        damaged[damaged.length / 2] ^= 1;
        Files.write(newest, damaged);

        assertThat(SnapshotStore.newestValid(dir, 1, POLICY).coveredSequence()).isEqualTo(10);
    }

    @Test
    void shouldIgnoreASnapshotTakenWithOtherShards()
    {
        SnapshotStore.write(dir, snapshot(10, new byte[] {1}));

        assertThat(SnapshotStore.newestValid(dir, 2, POLICY)).isNull();
    }

    private static SnapshotCommand snapshot(final long covered, final byte[]... states)
    {
        final SnapshotCommand snapshot = new SnapshotCommand(states.length, POLICY);
        for (int i = 0; i < states.length; i++)
        {
            snapshot.shardState(i, states[i]);
        }
        snapshot.covered(covered);
        return snapshot;
    }
}
