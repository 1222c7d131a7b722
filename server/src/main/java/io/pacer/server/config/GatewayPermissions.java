package io.pacer.server.config;

import com.google.errorprone.annotations.Immutable;

import java.util.Collections;
import java.util.EnumSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * What each gateway identity may send, {@code pacer.gateways}: the message kinds, and
 * optionally the campaign ids or id ranges. An identity is a client certificate's CN under mutual
 * TLS ({@code pacer.gateway.tls.client-ca-file}). Empty (the default): every connection may send
 * everything, as without this section. Not empty: a connection whose identity is not listed (or
 * that has none) may send nothing.
 *
 * @param grants by identity, in name order
 */
@Immutable
public record GatewayPermissions(@SuppressWarnings("Immutable") Map<String, Grant> grants)
{
    static final String KEY = "pacer.gateways";

    /** A message kind a gateway sends, by its name in the configuration. */
    public enum Kind
    {
        BID_REQUEST("bid-request"),
        WIN_NOTICE("win-notice"),
        LOSS_NOTICE("loss-notice");

        private final String configName;

        Kind(final String configName)
        {
            this.configName = configName;
        }

        static Kind named(final String key, final String name)
        {
            for (final Kind kind : values())
            {
                if (kind.configName.equals(name))
                {
                    return kind;
                }
            }
            throw new InvalidConfigException(key, "\"" + name + "\" is not a message kind: use bid-request, win-notice or loss-notice");
        }
    }

    /** An inclusive range of campaign ids. */
    public record IdRange(long from, long to)
    {
    }

    /**
     * One identity's grant.
     *
     * @param kinds     the message kinds it may send
     * @param campaigns the campaign ids it may name; empty: every campaign
     */
    @Immutable
    public record Grant(@SuppressWarnings("Immutable") Set<Kind> kinds, @SuppressWarnings("Immutable") List<IdRange> campaigns)
    {
        public Grant
        {
            kinds = Set.copyOf(kinds);
            campaigns = List.copyOf(campaigns);
        }
    }

    public GatewayPermissions
    {
        grants = Collections.unmodifiableMap(new LinkedHashMap<>(grants));
    }

    /** Everyone may send everything. */
    public static GatewayPermissions none()
    {
        return new GatewayPermissions(Map.of());
    }

    /** Whether any identity is restricted (the section is not empty). */
    public boolean enforced()
    {
        return !grants.isEmpty();
    }

    static GatewayPermissions read(final ConfigReader in)
    {
        final Map<String, Grant> grants = new LinkedHashMap<>();
        for (final String identity : in.childNames(KEY))
        {
            final String prefix = KEY + ".\"" + identity + "\"";
            for (final String field : in.childNames(prefix))
            {
                if (!field.equals("send") && !field.equals("campaigns"))
                {
                    throw new InvalidConfigException(prefix + "." + field, "unknown key; an identity has send and campaigns");
                }
            }
            final Set<Kind> kinds = EnumSet.noneOf(Kind.class);
            for (final String name : in.strings(prefix + ".send"))
            {
                kinds.add(Kind.named(prefix + ".send", name));
            }
            final List<IdRange> ranges = in.has(prefix + ".campaigns") ?
                in.strings(prefix + ".campaigns").stream().map(range -> range(prefix + ".campaigns", range)).toList() :
                List.of();
            grants.put(identity, new Grant(kinds, ranges));
        }
        return new GatewayPermissions(grants);
    }

    private static IdRange range(final String key, final String text)
    {
        final int dash = text.indexOf('-', 1);
        try
        {
            // campaign ids are unsigned 64-bit, as on the wire
            final long from = Long.parseUnsignedLong((dash < 0 ? text : text.substring(0, dash)).trim());
            final long to = dash < 0 ? from : Long.parseUnsignedLong(text.substring(dash + 1).trim());
            if (Long.compareUnsigned(to, from) < 0)
            {
                throw new InvalidConfigException(key, "\"" + text + "\": a range must run from a low id to a higher one");
            }
            return new IdRange(from, to);
        }
        catch (final NumberFormatException ex)
        {
            throw new InvalidConfigException(key, "\"" + text + "\" is not a campaign id or a range such as 1000-1999");
        }
    }
}
