package io.pacer.pipeline.journal;

import io.pacer.model.PacingPolicy;

import io.pacer.pipeline.journal.sbe.RecordHeaderEncoder;

import java.nio.ByteOrder;

/**
 * The journal's layout, little-endian throughout. The segment header and every record payload
 * are described in the SBE schema {@code pipeline/src/main/resources/sbe/pacer-journal.xml} and
 * written and read through the codecs generated from it ({@code io.pacer.pipeline.journal.sbe});
 * the framing (length, CRC32C) and the tunables' bytes ({@link TunablesCodec}) are written here.
 *
 * <pre>
 * segment file  journal-&lt;first journal sequence, 20 digits&gt;.log
 *   header      version 4 and 5: magic "PCRJ" (int) | version (int) | shards (int) | gateway identities
 *               known when the segment began (SBE group: id (unsigned short), name) | pacing tunables
 *               by name (SBE var data holding TunablesCodec's bytes: a new tunable needs no new version)
 *               (version 3: the fixed part, then TunablesCodec's bytes, no gateway table;
 *               version 2: the three tunables of its day as fixed longs, 36 bytes; version 1: without
 *               the dedupe window, 28 bytes, replayed with no window)
 *   records     length (int, payload bytes) | CRC32C of payload (int) | payload
 * payload       journal sequence (long) | epoch millis (long) | type (byte) | body
 *   BID         requestId | campaignId | bidCpmMicros (longs) | decided reason (byte) | gateway id (v4)
 *   WIN         requestId | campaignId | priceCpmMicros (longs) | gateway id (v4)
 *   LOSS        requestId | campaignId (longs) | gateway id (v4)
 *   DEFINE      campaign definition, the rest of the payload: in binary as CampaignDefinition.write
 *               writes it, as a snapshot holds it (v5); as JSON, UTF-8 (v1-4)
 *   TICK        nothing
 *   GATEWAY     id (unsigned short) | name: an identity first seen after the segment began (v4)
 * </pre>
 *
 * Journal sequences run on across restarts; ring sequences do not. The header carries what the
 * decisions depend on besides the events (shards, pacing parameters), so replay can use them.
 */
public final class JournalFormat
{
    public static final ByteOrder ORDER = ByteOrder.LITTLE_ENDIAN;
    public static final int MAGIC = 0x4A524350; // "PCRJ" little-endian
    public static final int VERSION = 5;
    /** The first version with campaign updates in binary ({@code CampaignDefinition.write}), not JSON. */
    public static final int VERSION_5 = 5;
    /** The first version with gateway identities: the id table and tunables in the SBE header. */
    public static final int VERSION_4 = 4;
    /** Segments with the tunables by name right after the fixed header, and no gateway table. */
    public static final int VERSION_3 = 3;
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
    /** Largest payload a record may have (a campaign definition, binary or JSON, is well under this). */
    public static final int MAX_PAYLOAD = 64 * 1024;

    /** The length of a current segment header recording {@code policy} and no gateway identity. */
    public static int headerLength(final PacingPolicy policy)
    {
        // the fixed part, an empty group's dimensions (4), the tunables' length (4) and bytes
        return TUNABLES_OFFSET + 4 + 4 + TunablesCodec.encode(policy).length;
    }

    private JournalFormat()
    {
    }

    public static String segmentName(final long firstSequence)
    {
        return String.format("journal-%020d.log", firstSequence);
    }
}
