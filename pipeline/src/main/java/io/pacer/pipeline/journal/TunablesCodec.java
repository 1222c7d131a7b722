package io.pacer.pipeline.journal;

import io.pacer.model.PacingPolicy;

import java.nio.BufferUnderflowException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The pacing tunables by name, as journal headers and snapshots (both version 3) record them,
 * little-endian: a count (int), then per tunable its name (length as an unsigned short, then
 * UTF-8) and its value (long). A new tunable adds an entry; readers of this version refuse a name
 * they do not know, since they could not reproduce the decisions it shaped.
 */
final class TunablesCodec
{
    private static final int MAX_TUNABLES = 64;

    private TunablesCodec()
    {
    }

    static byte[] encode(final PacingPolicy policy)
    {
        final Map<String, Long> tunables = policy.tunables();
        int length = Integer.BYTES;
        for (final String name : tunables.keySet())
        {
            length += Short.BYTES + name.getBytes(StandardCharsets.UTF_8).length + Long.BYTES;
        }
        final ByteBuffer out = ByteBuffer.allocate(length).order(JournalFormat.ORDER).putInt(tunables.size());
        tunables.forEach((name, value) ->
        {
            final byte[] utf8 = name.getBytes(StandardCharsets.UTF_8);
            out.putShort((short)utf8.length).put(utf8).putLong(value);
        });
        return out.array();
    }

    /**
     * Reads what {@link #encode} wrote, from {@code in}'s position (which it advances).
     *
     * @throws IllegalArgumentException if the bytes end early, or name a tunable this version does not know
     */
    /** As {@link #decode(ByteBuffer)}, from the tunables' bytes alone. */
    static PacingPolicy decode(final byte[] tunables)
    {
        return decode(ByteBuffer.wrap(tunables).order(JournalFormat.ORDER));
    }

    static PacingPolicy decode(final ByteBuffer in)
    {
        try
        {
            final int count = in.getInt();
            if (count < 0 || count > MAX_TUNABLES)
            {
                throw new IllegalArgumentException("implausible pacing tunable count " + count);
            }
            final Map<String, Long> tunables = new LinkedHashMap<>();
            for (int i = 0; i < count; i++)
            {
                final byte[] utf8 = new byte[Short.toUnsignedInt(in.getShort())];
                in.get(utf8);
                tunables.put(new String(utf8, StandardCharsets.UTF_8), in.getLong());
            }
            return PacingPolicy.fromTunables(tunables);
        }
        catch (final BufferUnderflowException ex)
        {
            throw new IllegalArgumentException("pacing tunables cut short", ex);
        }
    }
}
