package io.pacer.pipeline;

import org.agrona.collections.Object2IntHashMap;

import java.util.ArrayList;
import java.util.List;

/**
 * Small numbers for gateway identities, so that a ring slot and a journal record carry two bytes
 * instead of a name: id 0 is the anonymous gateway (no client certificate), and every identity
 * that connects gets the next id, for the life of the process. The journal writes the names
 * beside the ids in each segment. Not pacing state: registered when a connection's TLS handshake
 * completes, read when the journal writes a segment; both rare, so a lock is enough.
 */
public final class GatewayIds
{
    /** The id of a gateway without an identity. */
    public static final int ANONYMOUS = 0;
    /** Ids fit an unsigned 16-bit field. */
    public static final int MAX_ID = 65_534;

    private static final int MISSING = -1;

    private final Object2IntHashMap<String> ids = new Object2IntHashMap<>(MISSING);
    private final List<String> names = new ArrayList<>();

    public GatewayIds()
    {
        ids.put("", ANONYMOUS);
        names.add("");
    }

    /**
     * The id of {@code identity}, given it on first sight.
     *
     * @throws IllegalStateException past {@link #MAX_ID} identities
     */
    public synchronized int register(final String identity)
    {
        final int known = ids.getValue(identity);
        if (known != MISSING)
        {
            return known;
        }
        if (names.size() > MAX_ID)
        {
            throw new IllegalStateException("more than " + MAX_ID + " gateway identities");
        }
        final int id = names.size();
        ids.put(identity, id);
        names.add(identity);
        return id;
    }

    /** The identity of {@code id} ("" for the anonymous gateway). */
    public synchronized String name(final int id)
    {
        return names.get(id);
    }

    /** Ids given so far, including {@link #ANONYMOUS}: every id is below this. */
    public synchronized int size()
    {
        return names.size();
    }
}
