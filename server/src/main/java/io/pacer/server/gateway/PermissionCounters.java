package io.pacer.server.gateway;

import io.pacer.server.config.GatewayPermissions;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Messages refused by {@code pacer.gateway.permissions}, counted per gateway identity. The labels
 * are bounded by the configuration: one per configured identity, and {@link #UNLISTED} for every
 * connection whose identity is not configured (its CN is logged, not used as a label, so a
 * stranger cannot grow the metric). Counted on the event loops, only when a message is refused.
 */
public final class PermissionCounters
{
    /** The label of identities not in the configuration. */
    public static final String UNLISTED = "(unlisted)";

    /** One identity's counts. */
    public record Refusals(AtomicLong notPermitted, AtomicLong outsideCampaigns)
    {
    }

    private final GatewayPermissions permissions;
    private final Map<String, Refusals> byIdentity = new LinkedHashMap<>();

    public PermissionCounters(final GatewayPermissions permissions)
    {
        this.permissions = permissions;
        if (permissions.enforced())
        {
            for (final String identity : permissions.grants().keySet())
            {
                byIdentity.put(identity, new Refusals(new AtomicLong(), new AtomicLong()));
            }
            byIdentity.put(UNLISTED, new Refusals(new AtomicLong(), new AtomicLong()));
        }
    }

    GatewayPermissions permissions()
    {
        return permissions;
    }

    Refusals refusals(final String identity)
    {
        final Refusals refusals = byIdentity.get(identity);
        return refusals != null ? refusals : byIdentity.get(UNLISTED);
    }

    /** Every label and its counts, in configuration order ({@link #UNLISTED} last); empty when not enforced. */
    public Map<String, Refusals> all()
    {
        return Collections.unmodifiableMap(byIdentity);
    }
}
