package io.pacer.pipeline.journal;

import io.pacer.model.PacingPolicy;

import io.pacer.pipeline.journal.sbe.RecordHeaderEncoder;

import java.nio.ByteOrder;

/**
 * The journal's layout, little-endian throughout. The segment header's fixed part and every
 * record payload are described in the SBE schema {@code pipeline/src/main/resources/sbe/pacer-journal.xml}
 * and written and read through the codecs generated from it ({@code io.pacer.pipeline.journal.sbe});
 * the framing (length, CRC32C) and the tunables ({@link TunablesCodec}) are written here.
 *
 * <pre>
 * segment file  journal-&lt;first journal sequence, 20 digits&gt;.log
 *   header      magic "PCRJ" (int) | version (int) | shards (int) | pacing tunables by name
 *               (count (int), then per tunable: name length (unsigned short) | name (UTF-8) | value (long);
 *               see TunablesCodec): a new tunable needs no new version
 *               (version 2: the three tunables of its day as fixed longs, 36 bytes; version 1: without
 *               the dedupe window, 28 bytes, replayed with no window)
 *   records     length (int, payload bytes) | CRC32C of payload (int) | payload
 * payload       journal sequence (long) | epoch millis (long) | type (byte) | body
 *   BID         requestId | campaignId | bidCpmMicros (longs) | decided reason (byte)
 *   WIN         requestId | campaignId | priceCpmMicros (longs)
 *   LOSS        requestId | campaignId (longs)
 *   DEFINE      campaign definition as JSON, UTF-8 (the rest of the payload)
 *   TICK        nothing
 * </pre>
 *
 * Journal sequences run on across restarts; ring sequences do not. The header carries what the
 * decisions depend on besides the events (shards, pacing parameters), so replay can use them.
 */
public final class JournalFormat
{
    public static final ByteOrder ORDER = ByteOrder.LITTLE_ENDIAN;
    public static final int MAGIC = 0x4A524350; // "PCRJ" little-endian
    public static final int VERSION = 3;
    /** Where version 3's tunables start. */
    public static final int TUNABLES_OFFSET = 12;
    /** Segments whose header holds the tunables as three fixed longs. */
    public static final int VERSION_2 = 2;
    public static final int VERSION_2_HEADER_LENGTH = 36;
    /** Segments written before the notice dedupe window: a 28-byte header, read as a window of 0. */
    public static final int VERSION_1 = 1;
    public static final int VERSION_1_HEADER_LENGTH = 28;
    public static final int RECORD_HEADER_LENGTH = 8;
    public static final int PAYLOAD_HEADER_LENGTH = RecordHeaderEncoder.ENCODED_LENGTH;
    /** Largest payload a record may have (a campaign definition's JSON is well under this). */
    public static final int MAX_PAYLOAD = 64 * 1024;

    /** The length of a current segment header recording {@code policy}. */
    public static int headerLength(final PacingPolicy policy)
    {
        return TUNABLES_OFFSET + TunablesCodec.encode(policy).length;
    }

    private JournalFormat()
    {
    }

    public static String segmentName(final long firstSequence)
    {
        return String.format("journal-%020d.log", firstSequence);
    }
}
