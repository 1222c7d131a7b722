package io.pacer.pipeline.journal;

import io.pacer.model.PacingPolicy;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.ByteArrayOutputStream;
import java.io.DataOutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.zip.CRC32C;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Snapshot files written before the journal's SBE schema (big-endian, by hand) are still read: a
 * journal whose covered segments were retired depends on them.
 */
class LegacySnapshotTest
{
    private static final PacingPolicy POLICY = PacingPolicy.DEFAULT;

    @TempDir
    Path dir;

    @Test
    void shouldStillReadAVersionThreeSnapshotWrittenBeforeTheSchema() throws Exception
    {
        final ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        final DataOutputStream out = new DataOutputStream(bytes);
        out.writeInt(0x53524350);
        out.writeInt(3);
        out.writeInt(2);
        final byte[] tunables = TunablesCodec.encode(POLICY);
        out.writeInt(tunables.length);
        out.write(tunables);
        out.writeLong(99);
        out.writeInt(2);
        out.write(new byte[] {5, 6});
        out.writeInt(0);
        final CRC32C crc = new CRC32C();
        crc.update(bytes.toByteArray());
        out.writeInt((int)crc.getValue());
        Files.write(dir.resolve(String.format("snapshot-%020d.bin", 99)), bytes.toByteArray());

        final SnapshotStore.Loaded loaded = SnapshotStore.newestValid(dir, 2, POLICY);

        assertThat(loaded.coveredSequence()).isEqualTo(99);
        assertThat(loaded.shardStateBytes()).isDeepEqualTo(new byte[][] {{5, 6}, {}});
    }
}
