package io.pacer.pipeline.journal;

import io.pacer.model.CampaignDefinition;
import io.pacer.model.CampaignDefinitionParser;
import io.pacer.model.PacingPolicy;
import io.pacer.pipeline.GatewayIds;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.RandomAccessFile;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.zip.CRC32C;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class JournalTest
{
    private static final String CAMPAIGN_42 = "{\"id\":42,\"budgetMicros\":1000,\"dailyBudgetMicros\":0," +
        "\"start\":\"2026-01-01T00:00:00Z\",\"end\":\"2027-01-01T00:00:00Z\",\"timeZone\":\"Europe/Paris\"," +
        "\"maxBidCpmMicros\":0,\"pacing\":\"EVEN\",\"status\":\"ACTIVE\"}";

    /** The records {@link #writeFive} writes, as {@link #readAll} reads them back. */
    private static final String[] FIVE_RECORDS = {
        "0 BID_REQUEST 1000 7 42 2500000 0 null shards=2",
        "1 WIN_NOTICE 1001 7 42 1000000 0 null shards=2",
        "2 LOSS_NOTICE 1002 8 42 0 0 null shards=2",
        "3 CAMPAIGN_UPDATE 1003 8 42 0 0 " + CAMPAIGN_42 + " shards=2",
        "4 TICK 1004 8 42 0 0 null shards=2"};

    @TempDir
    Path dir;

    private JournalWriter writer(final long segmentBytes, final long firstSequence)
    {
        final JournalWriter writer = new JournalWriter(dir, 0, 2, PacingPolicy.DEFAULT, segmentBytes,
            JournalWriter.FsyncPolicy.NEVER, 100);
        writer.resumeAt(firstSequence);
        return writer;
    }

    private List<String> readAll(final boolean truncate)
    {
        final List<String> records = new ArrayList<>();
        new JournalReader(dir).read((r, header) -> records.add(r.sequence() + " " + r.type().name() + " " +
            r.epochMillis() + " " + r.requestId() + " " + r.campaignId() + " " + r.cpmMicros() + " " + r.reason() + " " +
            r.definitionJson() + " shards=" + header.shards()), truncate);
        return records;
    }

    private void writeFive(final JournalWriter w)
    {
        w.bid(1000, 7, 42, 2_500_000, 0);
        w.notice(true, 1001, 7, 42, 1_000_000);
        w.notice(false, 1002, 8, 42, 0);
        // the definition is written in binary, straight into the journal's buffer; read back, its JSON is canonical
        w.define(1003, CampaignDefinitionParser.parseJson(CAMPAIGN_42));
        w.tick(1004);
        w.endOfBatch();
    }

    @Test
    void shouldStillReadAVersionThreeSegmentWrittenByHand() throws Exception
    {
        writeVersionThreeSegment();

        assertThat(readAll(false)).containsExactly(FIVE_RECORDS);
    }

    @Test
    void shouldJournalACampaignUpdateInBinaryAndReadBackTheSameDefinition()
    {
        final CampaignDefinition written = CampaignDefinitionParser.parseJson(CAMPAIGN_42);
        try (JournalWriter w = writer(1 << 20, 0))
        {
            w.define(1003, written);
            w.endOfBatch();
        }
        final List<CampaignDefinition> read = new ArrayList<>();
        final JournalReader reader = new JournalReader(dir);
        reader.read((r, header) -> read.add(r.definition()), false);

        assertThat(read).containsExactly(written);
        assertThat(read.get(0).id()).isEqualTo(42);
        // header, then one record: 8 bytes of framing, 17 of record header, and the definition
        // in binary: 60 bytes and the zone id, where its JSON took over 200
        assertThat(JournalReader.segments(dir).get(0).toFile().length() - JournalFormat.headerLength(PacingPolicy.DEFAULT))
            .isEqualTo(8 + 17 + 60 + "Europe/Paris".length());
    }

    @Test
    void shouldReportABinaryDefinitionThatDoesNotDecodeAsCorruptionWithFileAndOffset() throws Exception
    {
        try (JournalWriter w = writer(1 << 20, 0))
        {
            w.define(1003, CampaignDefinitionParser.parseJson(CAMPAIGN_42));
            w.endOfBatch();
        }
        // a pacing mode that does not exist, under a CRC that holds: the writer wrote it so
        final Path segment = JournalReader.segments(dir).get(0);
        final int record = JournalFormat.headerLength(PacingPolicy.DEFAULT);
        try (RandomAccessFile file = new RandomAccessFile(segment.toFile(), "rw"))
        {
            final byte[] payload = new byte[(int)file.length() - record - 8];
            file.seek(record + 8);
            file.readFully(payload);
            payload[payload.length - 2] = 0x7F;
            final CRC32C crc = new CRC32C();
            crc.update(payload);
            file.seek(record + 4);
            file.write(ByteBuffer.allocate(4).order(ByteOrder.LITTLE_ENDIAN).putInt((int)crc.getValue()).array());
            file.seek(record + 8);
            file.write(payload);
        }

        assertThatThrownBy(() -> readAll(false)).isInstanceOf(JournalCorruptException.class)
            .hasMessageContaining(segment.getFileName().toString()).hasMessageContaining("offset " + record)
            .hasMessageContaining("definition does not decode");
    }

    @Test
    void shouldReplayAJournalWhoseOlderSegmentsHoldCampaignUpdatesAsJsonAndNewerOnesInBinary() throws Exception
    {
        writeVersionThreeSegment();
        try (JournalWriter w = writer(1 << 20, 5))
        {
            w.define(2000, CampaignDefinitionParser.parseJson(CAMPAIGN_42.replace("\"id\":42", "\"id\":43")));
            w.bid(2001, 9, 43, 2_500_000, 0);
            w.endOfBatch();
        }

        final JournalReplay replay = JournalReplay.ofJournal(new JournalReader(dir), JournalReplay.Observer.NONE);

        assertThat(replay.events()).isEqualTo(7);
        assertThat(replay.state(42).definition()).isEqualTo(CampaignDefinitionParser.parseJson(CAMPAIGN_42));
        assertThat(replay.state(43).definition().id()).isEqualTo(43);
        assertThat(replay.state(43).definition().timeZone().getId()).isEqualTo("Europe/Paris");
    }

    /** {@link #FIVE_RECORDS} in version 3's layout, as the writer laid it out by hand before the SBE schema. */
    private void writeVersionThreeSegment() throws Exception
    {
        final byte[] tunables = TunablesCodec.encode(PacingPolicy.DEFAULT);
        final byte[] json = CAMPAIGN_42.getBytes(StandardCharsets.UTF_8);
        final ByteBuffer v3 = ByteBuffer.allocate(1024).order(ByteOrder.LITTLE_ENDIAN);
        v3.putInt(0x4A524350).putInt(3).putInt(2).put(tunables);
        record(v3, 0, 1000, 1).putLong(7).putLong(42).putLong(2_500_000).put((byte)0);
        frame(v3);
        record(v3, 1, 1001, 2).putLong(7).putLong(42).putLong(1_000_000);
        frame(v3);
        record(v3, 2, 1002, 3).putLong(8).putLong(42);
        frame(v3);
        record(v3, 3, 1003, 4).put(json);
        frame(v3);
        record(v3, 4, 1004, 5);
        frame(v3);
        Files.write(dir.resolve(JournalFormat.segmentName(0)), Arrays.copyOf(v3.array(), v3.position()));
    }

    @Test
    void shouldNameTheSenderOfEveryBidAndNoticeInEverySegment()
    {
        final GatewayIds gateways = new GatewayIds();
        final int bidder = gateways.register("bidder-1");
        try (JournalWriter w = new JournalWriter(dir, 0, 2, PacingPolicy.DEFAULT, 200, JournalWriter.FsyncPolicy.NEVER, 100,
            gateways))
        {
            w.bid(1000, 7, 42, 2_500_000, 0, bidder);
            w.endOfBatch();
            // known before this segment began: in its header's table
            final int feed = gateways.register("exchange-feed");
            w.notice(true, 1001, 7, 42, 1_000_000, feed);
            w.notice(false, 1002, 8, 42, 0, GatewayIds.ANONYMOUS);
            w.endOfBatch();
            // new mid-segment: announced by a record of its own
            final int late = gateways.register("late-bidder");
            w.bid(1003, 9, 42, 2_500_000, 0, late);
            w.bid(1004, 10, 42, 2_500_000, 0, bidder);
            w.endOfBatch();
        }
        final List<String> senders = new ArrayList<>();
        new JournalReader(dir).read((r, header) -> senders.add(r.requestId() + " " + r.gateway() + " '" + r.gatewayName() + "'"),
            false);

        assertThat(JournalReader.segments(dir)).hasSizeGreaterThan(1);
        assertThat(senders).containsExactly("7 1 'bidder-1'", "7 2 'exchange-feed'", "8 0 ''", "9 3 'late-bidder'",
            "10 1 'bidder-1'");
    }

    private int recordStart;

    /** Starts a record by hand: room for length and CRC, then sequence, time and type. */
    private ByteBuffer record(final ByteBuffer out, final long sequence, final long epochMillis, final int type)
    {
        recordStart = out.position();
        return out.putInt(0).putInt(0).putLong(sequence).putLong(epochMillis).put((byte)type);
    }

    /** Ends a record by hand: its payload length and CRC32C. */
    private void frame(final ByteBuffer out)
    {
        final int payload = recordStart + 8;
        final CRC32C crc = new CRC32C();
        crc.update(out.array(), payload, out.position() - payload);
        out.putInt(recordStart, out.position() - payload).putInt(recordStart + 4, (int)crc.getValue());
    }

    @Test
    void shouldReadBackEveryRecordWrittenInOrder()
    {
        try (JournalWriter w = writer(1 << 20, 0))
        {
            writeFive(w);
        }
        assertThat(readAll(false)).containsExactly(FIVE_RECORDS);
    }

    @Test
    void shouldRollToNewSegmentsAndReadThemAsOneJournal()
    {
        try (JournalWriter w = writer(2048, 0))
        {
            for (int batch = 0; batch < 50; batch++)
            {
                for (int i = 0; i < 10; i++)
                {
                    w.bid(batch, batch * 10L + i, 1, 1, 0);
                }
                w.endOfBatch();
            }
        }
        assertThat(JournalReader.segments(dir)).hasSizeGreaterThan(5);
        final JournalReader reader = new JournalReader(dir);
        reader.read((r, h) -> { }, false);
        assertThat(reader.records()).isEqualTo(500);
        assertThat(reader.lastSequence()).isEqualTo(499);
    }

    @Test
    void shouldCutATornLastRecordAndCarryOn() throws Exception
    {
        try (JournalWriter w = writer(1 << 20, 0))
        {
            writeFive(w);
        }
        final Path segment = JournalReader.segments(dir).get(0);
        final long size = Files.size(segment);
        final long lastRecordStart = size - (JournalFormat.RECORD_HEADER_LENGTH + JournalFormat.PAYLOAD_HEADER_LENGTH);
        try (RandomAccessFile file = new RandomAccessFile(segment.toFile(), "rw"))
        {
            file.setLength(size - 3);
        }
        final JournalReader reader = new JournalReader(dir);
        reader.read((r, h) -> { }, true);
        assertThat(reader.records()).isEqualTo(4);
        assertThat(reader.tornTailOffset()).isEqualTo(lastRecordStart);
        assertThat(Files.size(segment)).isEqualTo(lastRecordStart);
        final JournalReader again = new JournalReader(dir);
        again.read((r, h) -> { }, false);
        assertThat(again.tornTailOffset()).isEqualTo(-1);
        assertThat(again.records()).isEqualTo(4);
    }

    @Test
    void shouldReportCorruptionBeforeTheTailWithFileAndOffset() throws Exception
    {
        try (JournalWriter w = writer(1 << 20, 0))
        {
            writeFive(w);
        }
        final Path segment = JournalReader.segments(dir).get(0);
        final long secondRecord = damageTheSecondRecord(segment);
        assertThatThrownBy(() -> new JournalReader(dir).read((r, h) -> { }, true))
            .isInstanceOfSatisfying(JournalCorruptException.class, ex ->
            {
                assertThat(ex.file()).isEqualTo(segment);
                assertThat(ex.offset()).isEqualTo(secondRecord);
                assertThat(ex.getMessage()).contains("CRC mismatch");
            });
    }

    @Test
    void shouldHandOverOnlyTheRecordsASnapshotDoesNotCoverAndStillCheckTheOthers() throws Exception
    {
        try (JournalWriter w = writer(1 << 20, 0))
        {
            writeFive(w);
        }
        final List<String> fromTwo = new ArrayList<>();
        final JournalReader reader = new JournalReader(dir);
        reader.read((r, h) -> fromTwo.add(r.sequence() + " " + r.type().name()), false, 2);
        assertThat(fromTwo).containsExactly("2 LOSS_NOTICE", "3 CAMPAIGN_UPDATE", "4 TICK");
        assertThat(reader.lastSequence()).isEqualTo(4);
        assertThat(reader.records()).isEqualTo(5);

        // a covered record is not decoded, but it is still checked: damage before the tail is corruption
        damageTheSecondRecord(JournalReader.segments(dir).get(0));
        assertThatThrownBy(() -> new JournalReader(dir).read((r, h) -> { }, false, 2))
            .isInstanceOfSatisfying(JournalCorruptException.class, ex -> assertThat(ex.getMessage()).contains("CRC mismatch"));
    }

    /** Hundreds of records into a segment: what the checker passed is not checked again, what it stopped at is. */
    @Test
    void shouldReportCorruptionFarIntoASegmentAfterHandingOverEveryRecordBeforeIt() throws Exception
    {
        final long[] offsets = writeFiveHundred();
        final Path segment = JournalReader.segments(dir).get(0);
        flipABit(segment, offsets[403] + 20);
        final List<Long> handed = new ArrayList<>();
        assertThatThrownBy(() -> new JournalReader(dir).read((r, h) -> handed.add(r.sequence()), true))
            .isInstanceOfSatisfying(JournalCorruptException.class, ex ->
            {
                assertThat(ex.offset()).isEqualTo(offsets[403]);
                assertThat(ex.getMessage()).contains("CRC mismatch");
            });
        assertThat(handed).hasSize(403).last().isEqualTo(402L);
        assertNoCheckerThreadLeft();
    }

    @Test
    void shouldCutATornTailAfterHundredsOfRecords() throws Exception
    {
        final long[] offsets = writeFiveHundred();
        final Path segment = JournalReader.segments(dir).get(0);
        try (RandomAccessFile file = new RandomAccessFile(segment.toFile(), "rw"))
        {
            file.setLength(file.length() - 3);
        }
        final JournalReader reader = new JournalReader(dir);
        reader.read((r, h) -> { }, true);
        assertThat(reader.records()).isEqualTo(499);
        assertThat(reader.tornTailOffset()).isEqualTo(offsets[499]);
        assertThat(Files.size(segment)).isEqualTo(offsets[499]);
    }

    @Test
    void shouldReadTheSameRecordsWhateverBufferTheSegmentsAreReadThrough() throws Exception
    {
        // ~1.5 MB over segments of 256 KB: read by the shortest buffer a record fits in, records
        // straddle its end in every segment, at every offset the record lengths come to
        try (JournalWriter w = writer(1 << 18, 0))
        {
            for (int i = 0; i < 4_000; i++)
            {
                writeFive(w);
            }
        }
        assertThat(JournalReader.segments(dir)).hasSizeGreaterThan(4);
        final List<String> whole = readThrough(new JournalReader(dir), 0);
        assertThat(whole).hasSize(20_000);
        for (final int chunk : new int[] {JournalReader.MIN_CHUNK_BYTES, JournalReader.MIN_CHUNK_BYTES + 7, 100_003})
        {
            assertThat(readThrough(new JournalReader(dir).readingBy(chunk), 0)).as("by %d bytes", chunk).isEqualTo(whole);
            assertThat(readThrough(new JournalReader(dir).readingBy(chunk), 12_345)).as("by %d bytes, from 12,345", chunk)
                .isEqualTo(whole.subList(12_345, whole.size()));
        }
        // every record came through the checkers' chunks: the reader checked none itself
        final JournalReader reader = new JournalReader(dir).readingBy(JournalReader.MIN_CHUNK_BYTES);
        readThrough(reader, 0);
        assertThat(reader.selfChecked()).isZero();
        assertThatThrownBy(() -> new JournalReader(dir).readingBy(JournalReader.MIN_CHUNK_BYTES - 1))
            .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("bytes or more");
    }

    @Test
    void shouldFindCorruptionAndATornTailPastTheFirstBufferFull() throws Exception
    {
        final long[] offsets = writeFives(1_000);
        final Path segment = JournalReader.segments(dir).get(0);
        assertThat(Files.size(segment)).isGreaterThan(3L * JournalReader.MIN_CHUNK_BYTES);
        final int damaged = 4_321;
        assertThat(offsets[damaged]).isGreaterThan(2L * JournalReader.MIN_CHUNK_BYTES);
        flipABit(segment, offsets[damaged] + 20);
        final List<Long> handed = new ArrayList<>();
        assertThatThrownBy(() -> new JournalReader(dir).readingBy(JournalReader.MIN_CHUNK_BYTES).read((r, h) -> handed.add(r.sequence()), true))
            .isInstanceOfSatisfying(JournalCorruptException.class, ex ->
            {
                assertThat(ex.offset()).isEqualTo(offsets[damaged]);
                assertThat(ex.getMessage()).contains("CRC mismatch");
            });
        assertThat(handed).hasSize(damaged).last().isEqualTo(damaged - 1L);
        assertNoCheckerThreadLeft();
        final JournalReader stopped = new JournalReader(dir).readingBy(JournalReader.MIN_CHUNK_BYTES);
        assertThatThrownBy(() -> stopped.read((r, h) -> { }, false)).isInstanceOf(JournalCorruptException.class);
        assertThat(stopped.selfChecked()).as("the damaged record, checked by the reader itself").isEqualTo(1);

        flipABit(segment, offsets[damaged] + 20);
        try (RandomAccessFile file = new RandomAccessFile(segment.toFile(), "rw"))
        {
            file.setLength(file.length() - 3);
        }
        final JournalReader reader = new JournalReader(dir).readingBy(JournalReader.MIN_CHUNK_BYTES);
        reader.read((r, h) -> { }, true);
        assertThat(reader.records()).isEqualTo(offsets.length - 1);
        assertThat(reader.tornTailOffset()).isEqualTo(offsets[offsets.length - 1]);
        assertThat(Files.size(segment)).isEqualTo(offsets[offsets.length - 1]);
    }

    @Test
    void shouldCheckASegmentWholeWhateverBufferItsCheckerReadsThrough() throws Exception
    {
        // a checker that stops early costs only speed (the reader checks the rest itself), so its
        // own reach is asserted here
        final long[] offsets = writeFives(1_000);
        final Path segment = JournalReader.segments(dir).get(0);
        final long size = Files.size(segment);
        for (final int chunk : new int[] {JournalReader.MIN_CHUNK_BYTES, JournalReader.MIN_CHUNK_BYTES + 7})
        {
            assertThat(checkedTo(segment, (int)offsets[0], size, chunk)).as("by %d bytes", chunk).isEqualTo(size);
        }
        flipABit(segment, offsets[4_321] + 20);
        assertThat(checkedTo(segment, (int)offsets[0], size, JournalReader.MIN_CHUNK_BYTES)).isEqualTo(offsets[4_321]);
        flipABit(segment, offsets[4_321] + 20);
        // told the segment is longer than the file: the read past its end fails, and the checker
        // stops where that read began, a record it had not passed yet
        final long stopped = checkedTo(segment, (int)offsets[0], size + 100, JournalReader.MIN_CHUNK_BYTES);
        assertThat(stopped).isLessThan(size).isGreaterThan(size - JournalReader.MIN_CHUNK_BYTES);
        assertThat(Arrays.binarySearch(offsets, stopped)).as("a record's start").isNotNegative();
        assertNoCheckerThreadLeft();
    }

    @Test
    void shouldCheckEverySegmentWholeThroughChunksReusedFromSegmentToSegment() throws Exception
    {
        // segments that do not end on a chunk's end: a chunk's last fill is short, and the next
        // segment's checker must not take that for the chunk's size
        try (JournalWriter w = writer(200_000, 0))
        {
            for (int i = 0; i < 4_000; i++)
            {
                writeFive(w);
            }
        }
        final List<Path> segments = JournalReader.segments(dir);
        assertThat(segments).hasSizeGreaterThan(3);
        final CheckedChunks chunks = new CheckedChunks(JournalReader.MIN_CHUNK_BYTES);
        for (final Path segment : segments)
        {
            final long size = Files.size(segment);
            assertThat(checkedTo(segment, JournalFormat.headerLength(PacingPolicy.DEFAULT), size, chunks))
                .as("%s", segment.getFileName()).isEqualTo(size);
        }
    }

    private static long checkedTo(final Path segment, final int start, final long size, final int chunkBytes)
    {
        return checkedTo(segment, start, size, new CheckedChunks(chunkBytes));
    }

    private static long checkedTo(final Path segment, final int start, final long size, final CheckedChunks chunks)
    {
        final SegmentChecker checker = new SegmentChecker(segment, start, size, chunks, "pacer-journal-check test");
        try
        {
            // taken and released as the reader does, each chunk starting where the one before ended
            long checkedTo = start;
            for (long n = 0; ; n++)
            {
                final int slot = checker.awaitChunk(n);
                if (slot < 0)
                {
                    return checkedTo;
                }
                assertThat(chunks.startsAt(slot)).isEqualTo(checkedTo);
                checkedTo = chunks.checkedTo(slot);
                checker.release(n + 1);
            }
        }
        finally
        {
            checker.close();
        }
    }

    private static List<String> readThrough(final JournalReader reader, final long fromSequence)
    {
        final List<String> records = new ArrayList<>();
        reader.read((r, header) -> records.add(r.sequence() + " " + r.type().name() + " " + r.epochMillis() + " " +
            r.requestId() + " " + r.campaignId() + " " + r.cpmMicros() + " " + r.reason() + " " + r.definitionJson()), false, fromSequence);
        return records;
    }

    @Test
    void shouldStopTheSegmentCheckerWhenTheHandlerFails() throws Exception
    {
        // a segment of more chunks than the checker may fill ahead: failing at the first record,
        // the reader leaves the checker parked, waiting for a chunk to be released
        final long[] offsets = writeFives(2_000);
        assertThat(offsets[offsets.length - 1]).isGreaterThan((CheckedChunks.SLOTS + 1L) * JournalReader.MIN_CHUNK_BYTES);
        for (final long failAt : new long[] {0, 300})
        {
            assertThatThrownBy(() -> new JournalReader(dir).readingBy(JournalReader.MIN_CHUNK_BYTES).read((r, h) ->
            {
                if (r.sequence() == failAt)
                {
                    throw new IllegalStateException("handler failed");
                }
            }, false)).hasMessage("handler failed");
            assertNoCheckerThreadLeft();
        }
    }

    /** 500 records in one segment; returns where each starts. */
    private long[] writeFiveHundred() throws Exception
    {
        return writeFives(100);
    }

    /** {@link #writeFive} {@code times} times, in one segment; returns where each record starts. */
    private long[] writeFives(final int times) throws Exception
    {
        try (JournalWriter w = writer(1 << 24, 0))
        {
            for (int i = 0; i < times; i++)
            {
                writeFive(w);
            }
        }
        final ByteBuffer bytes = ByteBuffer.wrap(Files.readAllBytes(JournalReader.segments(dir).get(0))).order(JournalFormat.ORDER);
        final long[] offsets = new long[5 * times];
        int position = JournalFormat.headerLength(PacingPolicy.DEFAULT);
        for (int i = 0; i < offsets.length; i++)
        {
            offsets[i] = position;
            position += JournalFormat.RECORD_HEADER_LENGTH + bytes.getInt(position);
        }
        assertThat(position).isEqualTo(bytes.capacity());
        return offsets;
    }

    private static void flipABit(final Path segment, final long offset) throws Exception
    {
        try (RandomAccessFile file = new RandomAccessFile(segment.toFile(), "rw"))
        {
            file.seek(offset);
            final int b = file.read();
            file.seek(offset);
            file.write(b ^ 0x40);
        }
    }

    private static void assertNoCheckerThreadLeft()
    {
        assertThat(Thread.getAllStackTraces().keySet()).noneMatch(t -> t.getName().startsWith("pacer-journal-check") && t.isAlive());
    }

    /** Flips a bit in the payload of {@link #writeFive}'s second record; returns where that record starts. */
    private static long damageTheSecondRecord(final Path segment) throws Exception
    {
        // the second record starts after the header and the 52-byte first record (8 + 17 + 27)
        final long secondRecord = JournalFormat.headerLength(PacingPolicy.DEFAULT) + 52L;
        try (RandomAccessFile file = new RandomAccessFile(segment.toFile(), "rw"))
        {
            file.seek(secondRecord + 20);
            final int b = file.read();
            file.seek(secondRecord + 20);
            file.write(b ^ 0x40);
        }
        return secondRecord;
    }

    @Test
    void shouldResumeNumberingInANewSegmentAfterRecovery()
    {
        try (JournalWriter w = writer(1 << 20, 0))
        {
            writeFive(w);
        }
        final JournalReader first = new JournalReader(dir);
        first.read((r, h) -> { }, true);
        try (JournalWriter w = writer(1 << 20, first.lastSequence() + 1))
        {
            w.tick(2000);
            w.endOfBatch();
        }
        assertThat(JournalReader.segments(dir)).hasSize(2);
        assertThat(readAll(false)).hasSize(6).last().asString().startsWith("5 TICK 2000");
    }
}
