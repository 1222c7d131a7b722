package io.pacer.pipeline;

import io.pacer.pipeline.journal.sbe.RecordType;

/**
 * What a ring slot holds. Every input to pacing travels through the ring as one of these, and
 * the journal records them by the same names: {@link #journalCode()} is a type's byte in a
 * journal record, the value its {@link RecordType} has in the journal's SBE schema (0: no record
 * of its own; a {@link #CAMPAIGN_BATCH} is journaled as its updates).
 */
public enum EventType
{
    /** A gateway's BidRequest; answered with a BidResponse. */
    BID_REQUEST(RecordType.BID_REQUEST),
    /** A gateway's WinNotice; books spend. */
    WIN_NOTICE(RecordType.WIN_NOTICE),
    /** A gateway's LossNotice; releases a reservation. */
    LOSS_NOTICE(RecordType.LOSS_NOTICE),
    /** Create or replace a campaign (admin PUT or campaigns-file change). */
    CAMPAIGN_UPDATE(RecordType.CAMPAIGN_UPDATE),
    /**
     * Create or replace several campaigns at one ring position (bulk admin PUT); each shard applies
     * its own, in order. Journaled as one {@link #CAMPAIGN_UPDATE} record per campaign, which replay
     * applies in the same order.
     */
    CAMPAIGN_BATCH(null),
    /** Time passes: expires reservations. Published periodically by the {@link TickSource}. */
    TICK(RecordType.TICK),
    /** Read campaign state consistently, in ring order (admin GET); advances time, so journaled as a TICK. */
    STATE_QUERY(RecordType.TICK),
    /**
     * A connection will send nothing more: once every answer published before this marker has
     * gone out, the replier closes it. Not an input to pacing.
     */
    END_OF_STREAM(null),
    /** Every shard serializes its state; a consistent cut of all shards at one ring position. */
    SNAPSHOT(null);

    /** The types a journal record can hold, by their code. */
    private static final EventType[] BY_JOURNAL_CODE = {null, BID_REQUEST, WIN_NOTICE, LOSS_NOTICE, CAMPAIGN_UPDATE, TICK};

    private final byte journalCode;

    EventType(final RecordType record)
    {
        this.journalCode = record == null ? 0 : (byte)record.value();
    }

    /** This type's byte in a journal record; 0 if it is not journaled. */
    public byte journalCode()
    {
        return journalCode;
    }

    /** Whether a gateway sends it: a bid request or a notice. */
    public boolean fromGateway()
    {
        return this == BID_REQUEST || this == WIN_NOTICE || this == LOSS_NOTICE;
    }

    /** Whether every shard applies it (time), rather than the one owning its campaign. */
    public boolean broadcast()
    {
        return this == TICK || this == STATE_QUERY || this == SNAPSHOT || this == CAMPAIGN_BATCH;
    }

    /** The type a journal record's byte stands for, or null for an unknown byte. */
    public static EventType ofJournalCode(final int code)
    {
        return code > 0 && code < BY_JOURNAL_CODE.length ? BY_JOURNAL_CODE[code] : null;
    }

    /** The types a journal holds, in code order. */
    public static EventType[] journaled()
    {
        return new EventType[] {BID_REQUEST, WIN_NOTICE, LOSS_NOTICE, CAMPAIGN_UPDATE, TICK};
    }
}
