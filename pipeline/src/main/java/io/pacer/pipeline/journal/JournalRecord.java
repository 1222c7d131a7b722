package io.pacer.pipeline.journal;

import io.pacer.pipeline.EventType;

/** One record as read back: a flyweight the reader refills for each record. */
public final class JournalRecord
{
    long sequence;
    long epochMillis;
    EventType type;
    long requestId;
    long campaignId;
    long cpmMicros;
    int reason;
    String definitionJson;

    public long sequence()
    {
        return sequence;
    }

    public long epochMillis()
    {
        return epochMillis;
    }

    /** What the record holds: one of {@link EventType#journaled()}. */
    public EventType type()
    {
        return type;
    }

    public long requestId()
    {
        return requestId;
    }

    public long campaignId()
    {
        return campaignId;
    }

    /** Bid or clearing price. */
    public long cpmMicros()
    {
        return cpmMicros;
    }

    /** The reason recorded for a bid when it was decided. */
    public int reason()
    {
        return reason;
    }

    public String definitionJson()
    {
        return definitionJson;
    }
}
