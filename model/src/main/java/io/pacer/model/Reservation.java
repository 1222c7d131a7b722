package io.pacer.model;

import io.pacer.units.CurrencyNanos;
import io.pacer.units.EpochMillis;

/**
 * Money held for one BID until its win or loss notice, or its deadline. Pooled and linked
 * intrusively by {@link ReservationBook}; never touched outside the owning shard.
 */
public final class Reservation
{
    long requestId;
    long campaignId;
    @CurrencyNanos long costNanos;
    @EpochMillis long deadlineMillis;
    CampaignBook campaign;

    /** Older and younger neighbours in deadline order. */
    Reservation older;
    Reservation younger;
    /** Next reservation with the same request id (different campaign, or a gateway's duplicate). */
    Reservation sameRequest;

    public long requestId()
    {
        return requestId;
    }

    public long campaignId()
    {
        return campaignId;
    }

    public @CurrencyNanos long costNanos()
    {
        return costNanos;
    }

    public @EpochMillis long deadlineMillis()
    {
        return deadlineMillis;
    }

    public CampaignBook campaign()
    {
        return campaign;
    }
}
