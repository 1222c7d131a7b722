package io.pacer.model;

import java.io.ByteArrayInputStream;
import java.io.DataInput;
import java.io.DataInputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.time.ZoneId;
import java.util.Arrays;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Time zones by id, one instance per id ({@link ZoneId#of} builds new rules objects on every
 * call, 150 bytes a campaign), and read from snapshots without a String per campaign.
 */
final class ZoneIds
{
    private static final ConcurrentHashMap<String, ZoneId> ZONES = new ConcurrentHashMap<>();
    static final ZoneId UTC = of("UTC");

    /** The zone a snapshot named last, by its bytes: a shard's campaigns mostly share a few zones. */
    private static volatile Named last = new Named("UTC".getBytes(StandardCharsets.US_ASCII), UTC);

    private ZoneIds()
    {
    }

    /**
     * {@link ZoneId#of}, one instance per id.
     *
     * @throws java.time.DateTimeException for an id that is not a zone
     */
    static ZoneId of(final String id)
    {
        return ZONES.computeIfAbsent(id, ZoneId::of);
    }

    /** A zone id written by {@link java.io.DataOutput#writeUTF}; the same zone as the last one read is not decoded again. */
    static ZoneId read(final DataInput in) throws IOException
    {
        final byte[] utf = new byte[in.readUnsignedShort()];
        in.readFully(utf);
        final Named memo = last;
        if (Arrays.equals(memo.utf, utf))
        {
            return memo.zone;
        }
        final ZoneId zone = of(decode(utf));
        last = new Named(utf, zone);
        return zone;
    }

    /** Modified UTF-8, which for a zone id (ASCII, no NUL) is ASCII. */
    private static String decode(final byte[] utf) throws IOException
    {
        for (final byte b : utf)
        {
            if (b <= 0)
            {
                final byte[] framed = new byte[utf.length + 2];
                framed[0] = (byte)(utf.length >>> 8);
                framed[1] = (byte)utf.length;
                System.arraycopy(utf, 0, framed, 2, utf.length);
                return new DataInputStream(new ByteArrayInputStream(framed)).readUTF();
            }
        }
        return new String(utf, StandardCharsets.US_ASCII);
    }

    /** A zone and the bytes that named it. */
    private static final class Named
    {
        private final byte[] utf;
        private final ZoneId zone;

        Named(final byte[] utf, final ZoneId zone)
        {
            this.utf = utf;
            this.zone = zone;
        }
    }
}
