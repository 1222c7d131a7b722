package io.pacer.pipeline.journal;

import io.pacer.model.CampaignDefinition;
import io.pacer.model.CampaignDefinitionParser;
import io.pacer.model.CampaignJson;
import io.pacer.pipeline.EventType;
import io.pacer.units.CpmMicros;
import io.pacer.units.EpochMillis;

/** One record as read back: a flyweight the reader refills for each record. */
public final class JournalRecord
{
    long sequence;
    @EpochMillis long epochMillis;
    EventType type;
    long requestId;
    long campaignId;
    @CpmMicros long cpmMicros;
    int reason;
    /** A campaign update's definition: decoded (version 5 on) or parsed from {@link #definitionJson} on first use. */
    CampaignDefinition definition;
    /** A campaign update's definition as JSON: as journaled (versions 1-4) or rendered on first use. */
    String definitionJson;
    int gateway;
    String gatewayName = "";

    /** Makes this record a copy of {@code other}. */
    void copyOf(final JournalRecord other)
    {
        sequence = other.sequence;
        epochMillis = other.epochMillis;
        type = other.type;
        requestId = other.requestId;
        campaignId = other.campaignId;
        cpmMicros = other.cpmMicros;
        reason = other.reason;
        definition = other.definition;
        definitionJson = other.definitionJson;
        gateway = other.gateway;
        gatewayName = other.gatewayName;
    }

    public long sequence()
    {
        return sequence;
    }

    public @EpochMillis long epochMillis()
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
    public @CpmMicros long cpmMicros()
    {
        return cpmMicros;
    }

    /** The reason recorded for a bid when it was decided. */
    public int reason()
    {
        return reason;
    }

    /** A campaign update's definition (null for any other record). */
    public CampaignDefinition definition()
    {
        if (definition == null && definitionJson != null)
        {
            definition = CampaignDefinitionParser.parseJson(definitionJson);
        }
        return definition;
    }

    /** A campaign update's definition as JSON, in the shape docs/operations.md gives (null for any other record). */
    public String definitionJson()
    {
        if (definitionJson == null && definition != null)
        {
            definitionJson = CampaignJson.definition(definition);
        }
        return definitionJson;
    }

    /** The sender's gateway id in its segment (bids and notices); 0: anonymous or before version 4. */
    public int gateway()
    {
        return gateway;
    }

    /** The sender's identity, a client certificate's CN; "" when anonymous or before version 4. */
    public String gatewayName()
    {
        return gatewayName;
    }
}
