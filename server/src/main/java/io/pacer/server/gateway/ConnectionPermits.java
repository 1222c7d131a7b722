package io.pacer.server.gateway;

import io.pacer.server.config.GatewayPermissions;

import java.util.List;

/**
 * What one gateway connection may send, resolved once from {@code pacer.gateways} and
 * its identity: the checks {@link FramePublisher} makes per frame are two booleans and, for a
 * grant limited to some campaigns, a scan of a few id ranges. Refusals are counted per identity,
 * in counters shared by the identity's connections.
 */
final class ConnectionPermits
{
    /** Everything, for everyone: no permissions are configured. */
    static final ConnectionPermits ALL = new ConnectionPermits(true, true, true, null, null, null);

    final boolean bids;
    final boolean wins;
    final boolean losses;
    /**
     * Whether it may send a bid of no price, the client's probe for notices read (INVALID_REQUEST
     * from the ring, whatever the campaign): an identity that may send bids or notices.
     */
    final boolean probes;
    /** Inclusive campaign id ranges it may name, or null for every campaign. */
    private final long[] from;
    private final long[] to;
    private final PermissionCounters.Counts counts;

    private ConnectionPermits(final boolean bids, final boolean wins, final boolean losses, final long[] from,
        final long[] to, final PermissionCounters.Counts counts)
    {
        this.bids = bids;
        this.wins = wins;
        this.losses = losses;
        this.probes = bids || wins || losses;
        this.from = from;
        this.to = to;
        this.counts = counts;
    }

    /** What {@code identity} may send under {@code counters}' permissions. */
    static ConnectionPermits of(final PermissionCounters counters, final String identity)
    {
        final GatewayPermissions permissions = counters.permissions();
        if (!permissions.enforced())
        {
            return ALL;
        }
        final GatewayPermissions.Grant grant = permissions.grants().get(identity);
        final PermissionCounters.Counts counts = counters.counts(identity);
        if (grant == null)
        {
            return new ConnectionPermits(false, false, false, new long[0], new long[0], counts);
        }
        final List<GatewayPermissions.IdRange> ranges = grant.campaigns();
        final long[] from = ranges.isEmpty() ? null : new long[ranges.size()];
        final long[] to = ranges.isEmpty() ? null : new long[ranges.size()];
        for (int i = 0; i < ranges.size(); i++)
        {
            from[i] = ranges.get(i).from();
            to[i] = ranges.get(i).to();
        }
        return new ConnectionPermits(grant.kinds().contains(GatewayPermissions.Kind.BID_REQUEST),
            grant.kinds().contains(GatewayPermissions.Kind.WIN_NOTICE),
            grant.kinds().contains(GatewayPermissions.Kind.LOSS_NOTICE), from, to, counts);
    }

    /** Whether it may name {@code campaignId}. */
    boolean mayName(final long campaignId)
    {
        if (from == null)
        {
            return true;
        }
        for (int i = 0; i < from.length; i++)
        {
            if (Long.compareUnsigned(campaignId, from[i]) >= 0 && Long.compareUnsigned(campaignId, to[i]) <= 0)
            {
                return true;
            }
        }
        return false;
    }

    /** Counts a message received, by kind; nothing without permissions ({@link #ALL}). */
    void countReceived(final GatewayPermissions.Kind kind)
    {
        if (counts != null)
        {
            switch (kind)
            {
                case BID_REQUEST -> counts.bidRequests().increment();
                case WIN_NOTICE -> counts.winNotices().increment();
                default -> counts.lossNotices().increment();
            }
        }
    }

    /** Counts a message of a kind it may not send. */
    void countNotPermitted()
    {
        counts.notPermitted().incrementAndGet();
    }

    /** Counts a message naming a campaign outside its ids. */
    void countOutsideCampaigns()
    {
        counts.outsideCampaigns().incrementAndGet();
    }
}
