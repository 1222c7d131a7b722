package io.pacer.pipeline;

import io.pacer.model.CampaignDefinition;
import io.pacer.model.PacingShard;
import io.pacer.units.CpmMicros;
import io.pacer.units.EpochMillis;
import io.pacer.wire.Reason;

/**
 * The one step from a pacing input to its {@link PacingShard} call. The live handler
 * ({@link PacingHandler}) and the journal's replay ({@code JournalReplay}) both take it, so live
 * decisions and replayed ones cannot drift apart: a new input type is added here once.
 * <p>
 * Routing is the caller's: a {@link EventType#broadcast()} input goes to every shard, any other to
 * the shard owning its campaign ({@code ShardRouter}).
 */
public final class PacingStep
{
    private PacingStep()
    {
    }

    /**
     * Applies one input to {@code shard}.
     *
     * @param definition the campaign of a {@link EventType#CAMPAIGN_UPDATE}, else ignored
     * @return the decision for a {@link EventType#BID_REQUEST}; {@link Reason#NONE} for the rest
     */
    public static Reason apply(
        final PacingShard shard, final EventType type, final long requestId, final long campaignId,
        final @CpmMicros long cpmMicros,
        final @EpochMillis long epochMillis, final CampaignDefinition definition)
    {
        switch (type)
        {
            case BID_REQUEST:
                return shard.bid(requestId, campaignId, cpmMicros, epochMillis);
            case WIN_NOTICE:
                shard.win(requestId, campaignId, cpmMicros, epochMillis);
                return Reason.NONE;
            case LOSS_NOTICE:
                shard.loss(requestId, campaignId, epochMillis);
                return Reason.NONE;
            case CAMPAIGN_UPDATE:
                shard.define(definition, epochMillis);
                return Reason.NONE;
            case TICK:
            case STATE_QUERY:
                shard.tick(epochMillis);
                return Reason.NONE;
            default:
                // END_OF_STREAM, SNAPSHOT: not inputs to pacing; CAMPAIGN_BATCH: its handler applies each
                // definition as a CAMPAIGN_UPDATE, as replay does with the records it is journaled as
                return Reason.NONE;
        }
    }
}
