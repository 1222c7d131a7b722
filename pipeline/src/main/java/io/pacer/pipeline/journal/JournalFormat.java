package io.pacer.pipeline.journal;

import java.nio.ByteOrder;

/**
 * The journal's layout, little-endian throughout.
 *
 * <pre>
 * segment file  journal-&lt;first journal sequence, 20 digits&gt;.log
 *   header      magic "PCRJ" (int) | version (int) | shards (int) | reservation TTL ms (long)
 *               | replan interval ms (long) | notice dedupe window ms (long)  = 36 bytes
 *               (version 1, without the window: 28 bytes, replayed with no dedupe window)
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
    public static final int VERSION = 2;
    public static final int HEADER_LENGTH = 36;
    /** Segments written before the notice dedupe window: a 28-byte header, read as a window of 0. */
    public static final int VERSION_1 = 1;
    public static final int VERSION_1_HEADER_LENGTH = 28;
    public static final int RECORD_HEADER_LENGTH = 8;
    public static final int PAYLOAD_HEADER_LENGTH = 17;
    /** Largest payload a record may have (a campaign definition's JSON is well under this). */
    public static final int MAX_PAYLOAD = 64 * 1024;

    private JournalFormat()
    {
    }

    public static String segmentName(final long firstSequence)
    {
        return String.format("journal-%020d.log", firstSequence);
    }
}
