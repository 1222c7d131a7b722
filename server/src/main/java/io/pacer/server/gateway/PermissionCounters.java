package io.pacer.server.gateway;

import io.pacer.server.config.GatewayPermissions;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.LongAdder;

/**
 * Messages per gateway identity under {@code pacer.gateways}: received, by kind, and
 * refused, by why. The labels are bounded by the configuration: one per configured identity, and
 * {@link #UNLISTED} for every connection whose identity is not configured (its CN is logged, not
 * used as a label, so a stranger cannot grow the metric). Counted on the event loops; without
 * permissions nothing is counted here (the totals are in {@link GatewayStats}).
 */
public final class PermissionCounters
{
    /** The label of identities not in the configuration. */
    public static final String UNLISTED = "(unlisted)";

    /** One identity's counts. */
    public record Counts(
        LongAdder bidRequests, LongAdder winNotices, LongAdder lossNotices, AtomicLong notPermitted,
        AtomicLong outsideCampaigns)
    {
        Counts()
        {
            this(new LongAdder(), new LongAdder(), new LongAdder(), new AtomicLong(), new AtomicLong());
        }
    }

    private final GatewayPermissions permissions;
    private final Map<String, Counts> byIdentity = new LinkedHashMap<>();

    public PermissionCounters(final GatewayPermissions permissions)
    {
        this.permissions = permissions;
        if (permissions.enforced())
        {
            for (final String identity : permissions.grants().keySet())
            {
                byIdentity.put(identity, new Counts());
            }
            byIdentity.put(UNLISTED, new Counts());
        }
    }

    GatewayPermissions permissions()
    {
        return permissions;
    }

    Counts counts(final String identity)
    {
        final Counts counts = byIdentity.get(identity);
        return counts != null ? counts : byIdentity.get(UNLISTED);
    }

    /** Every label and its counts, in configuration order ({@link #UNLISTED} last); empty when not enforced. */
    public Map<String, Counts> all()
    {
        return Collections.unmodifiableMap(byIdentity);
    }
}
