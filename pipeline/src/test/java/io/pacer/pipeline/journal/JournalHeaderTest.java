package io.pacer.pipeline.journal;

import io.pacer.model.PacingPolicy;
import io.pacer.units.Units;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** A segment's header records the pacing tunables by name; older fixed headers still read. */
class JournalHeaderTest
{
    private static final PacingPolicy POLICY =
        new PacingPolicy(Units.durationMillis(20_000), Units.durationMillis(2_000), Units.durationMillis(90_000));

    @TempDir
    Path dir;

    @Test
    void shouldRecordEveryPacingTunableByNameAndReadItBack()
    {
        writeTwoRecords();
        final List<JournalHeader> headers = new ArrayList<>();
        new JournalReader(dir).read((record, header) -> headers.add(header), false);
        assertThat(headers).hasSize(2).allSatisfy(h ->
        {
            assertThat(h.shards()).isEqualTo(4);
            assertThat(h.policy()).isEqualTo(POLICY);
        });
    }

    @Test
    void shouldStillReadASegmentWithTheVersion2FixedHeader() throws Exception
    {
        final Path segment = writeTwoRecords();
        final byte[] records = recordsOf(segment);
        final ByteBuffer v2 = ByteBuffer.allocate(JournalFormat.VERSION_2_HEADER_LENGTH + records.length).order(JournalFormat.ORDER)
            .putInt(JournalFormat.MAGIC).putInt(JournalFormat.VERSION_2).putInt(4)
            .putLong(20_000).putLong(2_000).putLong(90_000).put(records);
        Files.write(segment, v2.array());

        final List<String> read = new ArrayList<>();
        new JournalReader(dir).read((record, header) ->
            read.add(record.type() + " " + record.requestId() + " " + header.policy().equals(POLICY)), false);
        assertThat(read).containsExactly("BID_REQUEST 7 true", "WIN_NOTICE 7 true");
    }

    @Test
    void shouldRefuseASegmentThatRecordsATunableThisVersionDoesNotKnow() throws Exception
    {
        final Path segment = writeTwoRecords();
        final byte[] records = recordsOf(segment);
        final byte[] name = "burst-factor".getBytes(StandardCharsets.UTF_8);
        final byte[] known = TunablesCodec.encode(POLICY);
        final ByteBuffer header = ByteBuffer.allocate(JournalFormat.TUNABLES_OFFSET + known.length + 2 + name.length + 8 +
            records.length).order(JournalFormat.ORDER)
            .putInt(JournalFormat.MAGIC).putInt(JournalFormat.VERSION_3).putInt(4)
            .putInt(4).put(known, 4, known.length - 4).putShort((short)name.length).put(name).putLong(3).put(records);
        Files.write(segment, header.array());

        assertThatThrownBy(() -> new JournalReader(dir).read((record, h) -> { }, true))
            .isInstanceOf(JournalCorruptException.class)
            .hasMessageContaining("unknown pacing tunable \"burst-factor\"");
    }

    private Path writeTwoRecords()
    {
        try (JournalWriter writer = new JournalWriter(dir, 0, 4, POLICY, 1 << 20, JournalWriter.FsyncPolicy.NEVER, 100))
        {
            writer.resumeAt(1);
            writer.bid(1_000, 7, 42, 2_500_000, 0);
            writer.notice(true, 1_001, 7, 42, 2_000_000);
            writer.endOfBatch();
        }
        return JournalReader.segments(dir).get(0);
    }

    private static byte[] recordsOf(final Path segment) throws Exception
    {
        final byte[] all = Files.readAllBytes(segment);
        return Arrays.copyOfRange(all, JournalFormat.headerLength(POLICY), all.length);
    }
}
