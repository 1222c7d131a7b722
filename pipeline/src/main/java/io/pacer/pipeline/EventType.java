package io.pacer.pipeline;

/** What a ring slot holds. Every input to pacing travels through the ring as one of these. */
public enum EventType
{
    /** A gateway's BidRequest; answered with a BidResponse. */
    BID_REQUEST,
    /** A gateway's WinNotice; books spend. */
    WIN_NOTICE,
    /** A gateway's LossNotice; releases a reservation. */
    LOSS_NOTICE,
    /** Create or replace a campaign (admin PUT or campaigns-file change). */
    CAMPAIGN_UPDATE,
    /** Time passes: expires reservations. Published periodically by the {@link TickSource}. */
    TICK,
    /** Read campaign state consistently, in ring order (admin GET). */
    STATE_QUERY,
    /**
     * A connection will send nothing more: once every answer published before this marker has
     * gone out, the replier closes it. Not an input to pacing.
     */
    END_OF_STREAM,
    /** Every shard serializes its state; a consistent cut of all shards at one ring position. */
    SNAPSHOT
}
