package io.pacer.pipeline.journal;

import io.pacer.model.CampaignDefinition;
import io.pacer.model.PacingPolicy;
import io.pacer.pipeline.EventType;
import io.pacer.pipeline.GatewayIds;
import io.pacer.pipeline.PacerEvent;
import io.pacer.units.EpochMillis;
import io.pacer.units.Units;
import io.pacer.pipeline.journal.sbe.BidRecordDecoder;
import io.pacer.pipeline.journal.sbe.CampaignUpdateRecordDecoder;
import io.pacer.pipeline.journal.sbe.GatewayRecordDecoder;
import io.pacer.pipeline.journal.sbe.LossRecordDecoder;
import io.pacer.pipeline.journal.sbe.RecordHeaderDecoder;
import io.pacer.pipeline.journal.sbe.RecordType;
import io.pacer.pipeline.journal.sbe.SegmentHeaderDecoder;
import io.pacer.pipeline.journal.sbe.WinRecordDecoder;
import org.agrona.concurrent.UnsafeBuffer;
import org.agrona.io.DirectBufferDataInput;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.BufferUnderflowException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.MappedByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import java.util.zip.CRC32C;

/**
 * Reads a journal directory in order, checking every record's CRC: a {@link SegmentChecker} per
 * segment reads it and checks its records ahead of this thread, handing them over in chunks
 * ({@link CheckedChunks}) that this thread decodes where they were read. Where a checker stopped,
 * this thread checks and reads each record itself on the segment's mapping (mapped for its header
 * too, and touched nowhere else: see {@link ForwardReads} for why). A record
 * cut short or failing its CRC at the very end of the last segment is a torn tail (a crash
 * mid-write): reported through {@link #tornTailOffset}, and truncated when asked. Any other bad
 * record is corruption: {@link JournalCorruptException} with its file and offset.
 *
 * Record payloads and the segment header are read with the codecs generated from the journal's
 * SBE schema ({@code pacer-journal.xml}); this class checks the framing (length, CRC32C).
 *
 * <p>Over 300 lines because it reads four header versions (the fourth with its table of gateway
 * identities, which it keeps per segment) and tells a torn tail from corruption before it, with
 * the file and offset.
 */
public final class JournalReader
{
    /**
     * The logger, made on first use: only a torn tail logs, and making it at class load started
     * the logging back-end in every {@code pacer replay}, one that logs nothing included.
     */
    private static final class Log
    {
        static final Logger LOG = LoggerFactory.getLogger(JournalReader.class);
    }

    /** Receives each record; the record object is reused. */
    @FunctionalInterface
    public interface RecordHandler
    {
        void onRecord(JournalRecord record, JournalHeader header);
    }

    /** The bytes of each chunk a segment's checker reads it into. */
    static final int CHUNK_BYTES = 1 << 20;
    /** The fewest {@link #readingBy} takes: the longest record. */
    static final int MIN_CHUNK_BYTES = JournalFormat.RECORD_HEADER_LENGTH + JournalFormat.MAX_PAYLOAD;

    private final Path dir;
    /** Where a version 5 campaign update's definition is read from, through {@code CampaignDefinition.read}. */
    private final DirectBufferDataInput definitionIn = new DirectBufferDataInput(new UnsafeBuffer(new byte[0]));
    private final JournalRecord record = new JournalRecord();
    private final CRC32C crc = new CRC32C();
    /**
     * What the generated codecs read: a segment's mapping while its header is read, then each
     * chunk its checker hands over ({@link #chunks}), then, where the checker stopped, the mapping
     * again.
     */
    private final UnsafeBuffer segment = new UnsafeBuffer(0, 0);
    /** How many bytes each of {@link #chunks} holds. */
    private int chunkBytes = CHUNK_BYTES;
    /** The chunks each segment's checker hands its records over in, in turn (one checker runs at a time); made at the first segment. */
    private CheckedChunks chunks;
    private final SegmentHeaderDecoder segmentHeader = new SegmentHeaderDecoder();
    private final RecordHeaderDecoder recordHeader = new RecordHeaderDecoder();
    private final BidRecordDecoder bidRecord = new BidRecordDecoder();
    private final WinRecordDecoder winRecord = new WinRecordDecoder();
    private final LossRecordDecoder lossRecord = new LossRecordDecoder();
    private final GatewayRecordDecoder gatewayRecord = new GatewayRecordDecoder();
    /** The current segment's gateway names, by id. */
    private final List<String> names = new ArrayList<>();
    private Path tornFile;
    private long tornOffset = -1;
    private long lastSequence = -1;
    private long records;
    /** Records this thread checked itself, where a checker had stopped (tests: none in a sound journal). */
    private long selfChecked;
    /** Whether a read counts its notices first ({@link #countingNotices}). */
    private boolean countingNotices;
    /** The census leaves out the segments whose first record handed over is stamped after this ({@link #countingNotices(long)}). */
    private @EpochMillis long countUntilMillis = Units.MAX_INSTANT;
    /** The notices of the segments being read, counted before the first record; null when not counted. */
    private NoticeCensus census;

    public JournalReader(final Path dir)
    {
        this.dir = dir;
        // CampaignDefinition.write writes through java.io.DataOutput: big-endian
        definitionIn.byteOrder(ByteOrder.BIG_ENDIAN);
    }

    /** The segment files, oldest first. */
    public static List<Path> segments(final Path dir)
    {
        if (!Files.isDirectory(dir))
        {
            return List.of();
        }
        try (Stream<Path> files = Files.list(dir))
        {
            return files.filter(p -> p.getFileName().toString().matches("journal-\\d{20}\\.log")).sorted().toList();
        }
        catch (final IOException ex)
        {
            throw new UncheckedIOException(ex);
        }
    }

    /**
     * Reads every record.
     *
     * @param truncateTornTail cut a torn last record off its file (start-up does; audits do not)
     * @throws JournalCorruptException on a bad record before the tail
     */
    public void read(final RecordHandler handler, final boolean truncateTornTail)
    {
        read(handler, truncateTornTail, 0);
    }

    /**
     * As {@link #read(RecordHandler, boolean)}, handing over only records from {@code fromSequence}
     * on (a snapshot covers the rest): segments wholly before it are not even opened, and in the
     * segment it starts in, the records before it are checked (CRC, sequence, torn tail) but not
     * decoded (a million campaign updates took 0.8 s of a restart).
     */
    public void read(final RecordHandler handler, final boolean truncateTornTail, final long fromSequence)
    {
        final List<Path> segments = segments(dir);
        int first = 0;
        while (first + 1 < segments.size() && firstSequence(segments.get(first + 1)) <= fromSequence)
        {
            first++;
        }
        census = countingNotices ? countNotices(segments.subList(first, segments.size())) : null;
        for (int i = first; i < segments.size(); i++)
        {
            // readSegment hands over no record below fromSequence: those are covered, or a gateway's name
            readSegment(segments.get(i), i == segments.size() - 1, handler, truncateTornTail, fromSequence);
        }
    }

    /**
     * Counts the notices of {@code segments} from the first, as far as they were recorded with its
     * header (shards and tunables) and their headers read; null if there is nothing to count. Any
     * problem here is left for {@link #readSegment} to find and report.
     */
    NoticeCensus countNotices(final List<Path> segments)
    {
        return countNotices(segments, true, NoticeCensus.CHUNK_BYTES);
    }

    /**
     * As {@link #countNotices(List)}; {@code split} false counts every segment on the calling
     * thread, and each census reads by {@code chunkBytes} (tests compare the ways).
     */
    NoticeCensus countNotices(final List<Path> segments, final boolean split, final int chunkBytes)
    {
        final List<NoticeCensus.Segment> counted = new ArrayList<>();
        JournalHeader first = null;
        for (final Path file : segments)
        {
            try (FileChannel channel = FileChannel.open(file, StandardOpenOption.READ))
            {
                final long size = channel.size();
                if (size < JournalFormat.VERSION_1_HEADER_LENGTH)
                {
                    break;
                }
                final SegmentStart start = start(file, channel.map(FileChannel.MapMode.READ_ONLY, 0, size));
                if (first != null && !first.equals(start.header()))
                {
                    break;
                }
                first = start.header();
                if (startsAfter(start.recordsAt(), size, countUntilMillis))
                {
                    // the replay stops at or before this segment's first record: nothing from here on is applied
                    break;
                }
                counted.add(new NoticeCensus.Segment(file, start.recordsAt(), size));
            }
            catch (final IOException | RuntimeException ex)
            {
                break;
            }
        }
        return first == null || counted.isEmpty() ? null : NoticeCensus.count(first, counted, split, chunkBytes);
    }

    /**
     * Whether the first record of the segment {@link #segment} wraps that a read hands over (a
     * gateway's name is not handed over) is stamped after {@code untilMillis}; false if it has none,
     * or one that cannot be read (the read finds and reports that).
     */
    private boolean startsAfter(final int recordsAt, final long size, final long untilMillis)
    {
        if (untilMillis == Units.MAX_INSTANT)
        {
            return false;
        }
        int position = recordsAt;
        while (position + JournalFormat.RECORD_HEADER_LENGTH <= size)
        {
            final int length = segment.getInt(position, JournalFormat.ORDER);
            if (!SegmentChecker.isFramed(position, length, size))
            {
                return false;
            }
            final int payload = position + JournalFormat.RECORD_HEADER_LENGTH;
            if (segment.getByte(payload + RecordHeaderDecoder.typeEncodingOffset()) != RecordType.GATEWAY.value())
            {
                return segment.getLong(payload + RecordHeaderDecoder.epochMillisEncodingOffset(), JournalFormat.ORDER) > untilMillis;
            }
            position = payload + length;
        }
        return false;
    }

    /**
     * The pacing policy a segment's header records, read from {@code header} (positioned past it
     * on return).
     *
     * @throws IllegalArgumentException if the header is cut short (with the underflow as cause), or
     *                                  records a tunable this version does not know
     */
    private static PacingPolicy headerPolicy(final int version, final ByteBuffer header)
    {
        header.position(JournalFormat.TUNABLES_OFFSET);
        if (version == JournalFormat.VERSION_3)
        {
            return TunablesCodec.decode(header);
        }
        final int length = version == JournalFormat.VERSION_1 ?
            JournalFormat.VERSION_1_HEADER_LENGTH : JournalFormat.VERSION_2_HEADER_LENGTH;
        if (header.limit() < length)
        {
            throw new IllegalArgumentException("segment shorter than its header", new BufferUnderflowException());
        }
        final PacingPolicy policy = new PacingPolicy(Units.durationMillis(header.getLong()),
            Units.durationMillis(header.getLong()),
            Units.durationMillis(version == JournalFormat.VERSION_1 ? 0 : header.getLong()));
        header.position(length);
        return policy;
    }

    /** The first sequence of a segment, from its name. */
    public static long firstSequence(final Path segment)
    {
        final String name = segment.getFileName().toString();
        return Long.parseLong(name.substring("journal-".length(), name.length() - ".log".length()));
    }

    private void readSegment(final Path file, final boolean last, final RecordHandler handler, final boolean truncate,
        final long fromSequence)
    {
        try (FileChannel channel = FileChannel.open(file, truncate && last ?
            new StandardOpenOption[] {StandardOpenOption.READ, StandardOpenOption.WRITE} :
            new StandardOpenOption[] {StandardOpenOption.READ}))
        {
            final long size = channel.size();
            if (size < JournalFormat.VERSION_1_HEADER_LENGTH)
            {
                if (last)
                {
                    torn(file, 0, "segment shorter than its header", channel, truncate, true);
                    return;
                }
                throw new JournalCorruptException(file, 0, "segment shorter than its header");
            }
            final MappedByteBuffer map = channel.map(FileChannel.MapMode.READ_ONLY, 0, size);
            final SegmentStart start;
            try
            {
                start = start(file, map);
            }
            catch (final IllegalArgumentException ex)
            {
                if (last && ex.getCause() instanceof BufferUnderflowException)
                {
                    torn(file, 0, "segment shorter than its header", channel, truncate, true);
                    return;
                }
                throw new JournalCorruptException(file, 0, "header: " + ex.getMessage());
            }
            final int version = start.version();
            final JournalHeader header = start.header();
            int position = start.recordsAt();
            // the records are read by the checker into chunks; the mapping is touched only past where
            // it stopped (a torn tail, damage), where this thread checks and reads each record itself
            if (chunks == null)
            {
                chunks = new CheckedChunks(chunkBytes);
            }
            // closed (its thread joined) before the next segment's checker takes the same chunks
            final SegmentChecker checker = new SegmentChecker(file, position, size, chunks,
                "pacer-journal-check " + file.getFileName());
            try
            {
                // the checked chunks, each starting where the one before ended, as long as the checker hands them over
                for (long n = 0; ; n++)
                {
                    final int slot = checker.awaitChunk(n);
                    if (slot < 0)
                    {
                        break;
                    }
                    segment.wrap(chunks.view(slot));
                    final long startsAt = chunks.startsAt(slot);
                    final long end = chunks.checkedTo(slot);
                    while (position < end)
                    {
                        position = applyRecord(file, position, (int)(position - startsAt), version, fromSequence, header, handler);
                    }
                    checker.release(n + 1);
                }
                // where the checker stopped, the reader looks itself, and tells a torn tail from corruption
                segment.wrap(map);
                final ByteBuffer view = map.duplicate().order(JournalFormat.ORDER);
                while (position < size)
                {
                    selfChecked++;
                    final String problem = SegmentChecker.problem(map, position, size, view, crc);
                    if (problem != null)
                    {
                        final boolean atTail = last && isTail(map, position, size);
                        if (atTail)
                        {
                            torn(file, position, problem, channel, truncate, false);
                            return;
                        }
                        throw new JournalCorruptException(file, position, problem);
                    }
                    position = applyRecord(file, position, position, version, fromSequence, header, handler);
                }
            }
            finally
            {
                checker.close();
            }
        }
        catch (final IOException ex)
        {
            throw new UncheckedIOException("cannot read journal segment " + file, ex);
        }
    }

    /** What a segment's header says, and where its records start. */
    private record SegmentStart(int version, JournalHeader header, int recordsAt)
    {
    }

    /**
     * Reads the header of segment {@code file}, mapped whole in {@code map}: {@link #segment} then
     * wraps it, and {@link #names} holds its gateway table.
     *
     * @throws JournalCorruptException  if it is not a segment of a version this reader knows
     * @throws IllegalArgumentException if the header is cut short (with the underflow as cause), or
     *                                  records a tunable this version does not know
     */
    private SegmentStart start(final Path file, final MappedByteBuffer map)
    {
        map.order(JournalFormat.ORDER);
        segment.wrap(map);
        segmentHeader.wrap(segment, 0, SegmentHeaderDecoder.BLOCK_LENGTH, SegmentHeaderDecoder.SCHEMA_VERSION);
        final int version = segmentHeader.version();
        if (segmentHeader.magic() != JournalFormat.MAGIC || version < JournalFormat.VERSION_1 ||
            version > JournalFormat.VERSION)
        {
            throw new JournalCorruptException(file, 0, "not a pacer journal segment of version 1 to " +
                JournalFormat.VERSION);
        }
        names.clear();
        names.add("");
        if (version >= JournalFormat.VERSION_4)
        {
            final PacingPolicy policy = headerV4(version);
            return new SegmentStart(version, new JournalHeader(segmentHeader.shards(), policy), segmentHeader.limit());
        }
        final ByteBuffer headerView = map.duplicate().order(JournalFormat.ORDER);
        final PacingPolicy policy = headerPolicy(version, headerView);
        return new SegmentStart(version, new JournalHeader(segmentHeader.shards(), policy), headerView.position());
    }

    /**
     * Whether the record at offset {@code at} of {@link #segment} (whole, its CRC checked) is below {@code fromSequence},
     * which a snapshot covers, and not a gateway's name (which later records refer to): then only
     * {@link #record}'s sequence is read, and the record is not handed over.
     */
    private boolean covered(final int at, final long fromSequence)
    {
        if (fromSequence <= 0)
        {
            return false;
        }
        recordHeader.wrap(segment, at + JournalFormat.RECORD_HEADER_LENGTH);
        if (recordHeader.sequence() >= fromSequence || recordHeader.typeRaw() == RecordType.GATEWAY.value())
        {
            return false;
        }
        record.sequence = recordHeader.sequence();
        return true;
    }

    /**
     * Decodes the checked record at {@code position}, whole at offset {@code at} of {@link #segment},
     * checks its sequence and hands it over unless it is a gateway's name or a snapshot covers it.
     *
     * @return the position of the next record
     */
    private int applyRecord(final Path file, final int position, final int at, final int version, final long fromSequence,
        final JournalHeader header, final RecordHandler handler)
    {
        final int length = segment.getInt(at, JournalFormat.ORDER);
        // a record the snapshot covers, checked like every record, is not decoded (a million
        // campaign updates took most of a restart's replay); a gateway's name still is
        final boolean covered = covered(at, fromSequence);
        final boolean input;
        try
        {
            input = covered || decode(at + JournalFormat.RECORD_HEADER_LENGTH, length, version);
        }
        catch (final UnreadableDefinitionException ex)
        {
            throw new JournalCorruptException(file, position, ex.getMessage());
        }
        if (lastSequence >= 0 && record.sequence != lastSequence + 1)
        {
            throw new JournalCorruptException(file, position, "sequence " + record.sequence + " follows " + lastSequence);
        }
        lastSequence = record.sequence;
        if (input)
        {
            records++;
            if (!covered)
            {
                handler.onRecord(record, header);
            }
        }
        return position + JournalFormat.RECORD_HEADER_LENGTH + length;
    }

    /**
     * A bad record is the torn tail only if nothing valid could follow it: it claims a possible
     * length that runs to (or past) the end of the file, or everything after it is zeros.
     */
    private static boolean isTail(final ByteBuffer map, final int position, final long size)
    {
        if (size - position < JournalFormat.RECORD_HEADER_LENGTH)
        {
            return true;
        }
        final int length = map.getInt(position);
        // a torn write leaves a prefix of one whole record: its length field is whole or zeros, so
        // an impossible length is damage, not a tail, unless only zeros follow it
        final boolean possible = length >= JournalFormat.PAYLOAD_HEADER_LENGTH && length <= JournalFormat.MAX_PAYLOAD;
        final long end = (long)position + JournalFormat.RECORD_HEADER_LENGTH + (possible ? length : 0);
        if (possible && end >= size)
        {
            return true;
        }
        for (long i = end; i < size; i++)
        {
            if (map.get((int)i) != 0)
            {
                return false;
            }
        }
        return true;
    }

    private void torn(final Path file, final long offset, final String problem, final FileChannel channel,
        final boolean truncate, final boolean wholeSegment) throws IOException
    {
        tornFile = file;
        tornOffset = offset;
        if (truncate)
        {
            Log.LOG.error("JOURNAL TORN TAIL: {} at offset {} ({}); truncating there - a crash cut the last write short",
                file, offset, problem);
            channel.truncate(wholeSegment ? 0 : offset);
            channel.force(true);
            if (wholeSegment)
            {
                channel.close();
                Files.delete(file);
            }
        }
        else
        {
            Log.LOG.warn("journal torn tail: {} at offset {} ({})", file, offset, problem);
        }
    }

    /**
     * Fills {@link #record} from the payload at {@code payload}, through the generated codecs.
     *
     * @return false for a record that is not an input to pacing (a gateway's name), which the
     *         reader keeps for the records after it
     */
    private boolean decode(final int payload, final int length, final int version)
    {
        recordHeader.wrap(segment, payload);
        record.sequence = recordHeader.sequence();
        record.epochMillis = Units.epochMillis(recordHeader.epochMillis());
        record.definition = null;
        record.definitionJson = null;
        record.gateway = GatewayIds.ANONYMOUS;
        record.gatewayName = "";
        if (recordHeader.typeRaw() == RecordType.GATEWAY.value())
        {
            gatewayRecord.wrap(segment, payload, GatewayRecordDecoder.BLOCK_LENGTH, version);
            name(gatewayRecord.id(), gatewayRecord.name());
            return false;
        }
        record.type = EventType.ofJournalCode(recordHeader.typeRaw());
        if (record.type == null)
        {
            throw new IllegalStateException("unknown journal record type " + recordHeader.typeRaw());
        }
        switch (record.type)
        {
            case BID_REQUEST ->
            {
                bidRecord.wrap(segment, payload, length, version);
                record.requestId = bidRecord.requestId();
                record.campaignId = bidRecord.campaignId();
                record.cpmMicros = Units.cpmMicros(bidRecord.bidCpmMicros());
                record.reason = bidRecord.reason();
                record.gateway = gatewayOf(bidRecord.gateway());
            }
            case WIN_NOTICE ->
            {
                winRecord.wrap(segment, payload, length, version);
                record.requestId = winRecord.requestId();
                record.campaignId = winRecord.campaignId();
                record.cpmMicros = Units.cpmMicros(winRecord.priceCpmMicros());
                record.gateway = gatewayOf(winRecord.gateway());
            }
            case LOSS_NOTICE ->
            {
                lossRecord.wrap(segment, payload, length, version);
                record.requestId = lossRecord.requestId();
                record.campaignId = lossRecord.campaignId();
                record.gateway = gatewayOf(lossRecord.gateway());
                record.cpmMicros = PacerEvent.NO_PRICE;
            }
            case CAMPAIGN_UPDATE ->
            {
                // the rest of the payload: the definition, in binary (version 5 on) or as JSON
                final int body = payload + CampaignUpdateRecordDecoder.BLOCK_LENGTH;
                final int bodyLength = length - CampaignUpdateRecordDecoder.BLOCK_LENGTH;
                if (version >= JournalFormat.VERSION_5)
                {
                    record.definition = definition(body, bodyLength);
                }
                else
                {
                    record.definitionJson = segment.getStringWithoutLengthUtf8(body, bodyLength);
                }
            }
            default ->
            {
                // TICK: nothing more
            }
        }
        return true;
    }

    /**
     * Reads a definition {@code CampaignDefinition.write} wrote at {@code offset}, through its checks.
     *
     * @throws UnreadableDefinitionException if it does not decode to a valid definition (its CRC
     *         held, so the writer wrote it so: the journal is corrupt there)
     */
    private CampaignDefinition definition(final int offset, final int length)
    {
        definitionIn.wrap(segment, offset, length);
        try
        {
            return CampaignDefinition.read(definitionIn);
        }
        catch (final IOException | RuntimeException ex)
        {
            throw new UnreadableDefinitionException("campaign update " + record.sequence + ": definition does not decode (" +
                ex + ")");
        }
    }

    /** A version 5 campaign update whose definition does not decode. */
    private static final class UnreadableDefinitionException extends RuntimeException
    {
        private static final long serialVersionUID = 1L;

        UnreadableDefinitionException(final String message)
        {
            super(message, null, false, false);
        }
    }

    /** A record's gateway id, and its name from this segment's table ("" before version 4). */
    private int gatewayOf(final int id)
    {
        // a field newer than the segment reads as its null value
        final int gateway = id == BidRecordDecoder.gatewayNullValue() ? GatewayIds.ANONYMOUS : id;
        final String name = gateway < names.size() ? names.get(gateway) : null;
        if (name == null)
        {
            throw new IllegalStateException("gateway id " + gateway + " used before its name");
        }
        record.gatewayName = name;
        return gateway;
    }

    /**
     * A version 4 header, through the generated decoder: the gateway table into {@link #names},
     * and the tunables; {@code segmentHeader.limit()} is then where the records start.
     *
     * @throws IllegalArgumentException if the header is cut short (with the underflow as cause)
     */
    private PacingPolicy headerV4(final int version)
    {
        try
        {
            segmentHeader.wrap(segment, 0, SegmentHeaderDecoder.BLOCK_LENGTH, version);
            for (final SegmentHeaderDecoder.GatewaysDecoder gateway : segmentHeader.gateways())
            {
                name(gateway.id(), gateway.name());
            }
            final byte[] tunables = new byte[segmentHeader.tunablesLength()];
            segmentHeader.getTunables(tunables, 0, tunables.length);
            return TunablesCodec.decode(tunables);
        }
        catch (final IndexOutOfBoundsException ex)
        {
            throw new IllegalArgumentException("segment shorter than its header", new BufferUnderflowException());
        }
    }

    /** Names gateway {@code id} in the current segment's table. */
    private void name(final int id, final String name)
    {
        while (names.size() <= id)
        {
            names.add(null);
        }
        names.set(id, name);
    }

    /**
     * Reads the segments by {@code chunkBytes} (at least {@link #MIN_CHUNK_BYTES}) instead of
     * {@link #CHUNK_BYTES}: tests make records straddle the buffer's ends.
     *
     * @return this reader
     */
    JournalReader readingBy(final int chunkBytes)
    {
        if (chunkBytes < MIN_CHUNK_BYTES)
        {
            throw new IllegalArgumentException("a reader reads by " + MIN_CHUNK_BYTES + " bytes or more, not " + chunkBytes);
        }
        this.chunkBytes = chunkBytes;
        this.chunks = null;
        return this;
    }

    /**
     * Makes every read from now on count the journal's notices before it hands over the first
     * record, for {@link #census()}: a replay sizes its dedupe tables by it.
     *
     * @return this reader
     */
    public JournalReader countingNotices()
    {
        return countingNotices(Units.MAX_INSTANT);
    }

    /**
     * As {@link #countingNotices()}, for a read whose records stamped after {@code untilMillis} are
     * not applied (a replay up to an instant, which stops at the first such record): the census
     * leaves out each segment whose first record handed over is stamped after it, and every segment
     * after that one, since nothing applied comes from them. So a question about an instant early in
     * a long journal counts, and sizes its tables for, only the segments up to it.
     *
     * @return this reader
     */
    public JournalReader countingNotices(final @EpochMillis long untilMillis)
    {
        countingNotices = true;
        countUntilMillis = untilMillis;
        return this;
    }

    /**
     * How many notices each shard's dedupe window holds at most, counted before the first record
     * was handed over, for sizing a replay's tables; null unless {@link #countingNotices} was asked
     * for and the read has a segment. It counts as far as the segments were recorded with the first
     * one's header.
     */
    public NoticeCensus census()
    {
        return census;
    }

    /** The last sequence read, -1 if none. */
    public long lastSequence()
    {
        return lastSequence;
    }

    public long records()
    {
        return records;
    }

    /** Records this reader checked on its own thread because a segment's checker had stopped before them. */
    long selfChecked()
    {
        return selfChecked;
    }

    /** The offset of a torn tail found by the last read, or -1. */
    public long tornTailOffset()
    {
        return tornOffset;
    }

    public Path tornTailFile()
    {
        return tornFile;
    }

}
