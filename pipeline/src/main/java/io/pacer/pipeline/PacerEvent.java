package io.pacer.pipeline;

import io.pacer.model.CampaignDefinition;
import io.pacer.units.CpmMicros;
import io.pacer.units.EpochMillis;
import io.pacer.units.Units;
import io.pacer.wire.Reason;

import java.util.List;

/**
 * One ring slot, preallocated and reused. Producers fill the input fields and publish; the
 * owning shard writes {@link #reason}; the replier answers and clears the references.
 */
public final class PacerEvent
{
    /** The price of an event that carries none (a loss notice, an admin command, a tick). */
    public static final @CpmMicros long NO_PRICE = Units.cpmMicros(0);

    /** Input: what this is. */
    EventType type;
    /** Input: the gateway's request id (bids and notices). */
    long requestId;
    /** Input: the campaign (bids and notices); chooses the shard. */
    long campaignId;
    /** Input: bid or clearing price in CPM micros. */
    @CpmMicros long cpmMicros;
    /** Input: ingress time, epoch milliseconds; the only time pacing knows. */
    @EpochMillis long epochMillis;
    /** Input: ingress {@link System#nanoTime()}, for latency measurement only. */
    long ingressNanos;
    /** Input: the sender's identity ({@link GatewayIds}) for bids and notices; 0: anonymous. */
    int gateway;
    /** Input: where a bid's answer goes. */
    Responder responder;
    /** Input: an admin update or query. */
    AdminCommand command;
    /** Input: a snapshot request (each shard fills its slot). */
    SnapshotCommand snapshot;
    /**
     * Input: whether a bid may wait in the ring behind a backlog, so that the queue deadline
     * applies. False for a bid that a shared pipeline's drain loop published itself: the loop
     * drains what it read in the same pass, so the bid queues behind nothing, and a late pass
     * (a preempted thread, a GC pause) would make every answer late alike; shedding it would
     * drain nothing faster.
     */
    boolean sheddable;
    /** Output of the owning shard: the decision for a bid. */
    Reason reason;

    /** Sets a bid request; the default answer, if no shard gets to decide, is OVERLOADED. */
    public void bidRequest(
        final long requestId, final long campaignId, final @CpmMicros long bidCpmMicros,
        final @EpochMillis long epochMillis,
        final long ingressNanos, final Responder responder)
    {
        bidRequest(requestId, campaignId, bidCpmMicros, epochMillis, ingressNanos, responder, true);
    }

    /** As above, saying whether the queue deadline applies (see {@link #sheddable}). */
    void bidRequest(
        final long requestId, final long campaignId, final @CpmMicros long bidCpmMicros,
        final @EpochMillis long epochMillis,
        final long ingressNanos, final Responder responder, final boolean sheddable)
    {
        fill(EventType.BID_REQUEST, requestId, campaignId, bidCpmMicros, epochMillis, ingressNanos, responder, null);
        this.reason = Reason.OVERLOADED;
        this.sheddable = sheddable;
    }

    /** Sets a win ({@code win}) or loss notice; {@code priceCpmMicros} is ignored for a loss. */
    public void notice(
        final boolean win, final long requestId, final long campaignId, final @CpmMicros long priceCpmMicros,
        final @EpochMillis long epochMillis, final long ingressNanos)
    {
        fill(win ? EventType.WIN_NOTICE : EventType.LOSS_NOTICE, requestId, campaignId, priceCpmMicros, epochMillis,
            ingressNanos, null, null);
    }

    /** Sets an admin update or query. */
    public void admin(final AdminCommand command, final @EpochMillis long epochMillis, final long ingressNanos)
    {
        fill(command.type(), 0, command.campaignId(), NO_PRICE, epochMillis, ingressNanos, null, command);
    }

    /** Sets an end-of-stream marker for {@code responder}. */
    public void endOfStream(final Responder responder, final @EpochMillis long epochMillis, final long ingressNanos)
    {
        fill(EventType.END_OF_STREAM, 0, 0, NO_PRICE, epochMillis, ingressNanos, responder, null);
    }

    /** Sets a tick. */
    public void tick(final @EpochMillis long epochMillis, final long ingressNanos)
    {
        fill(EventType.TICK, 0, 0, NO_PRICE, epochMillis, ingressNanos, null, null);
    }

    private void fill(
        final EventType type, final long requestId, final long campaignId, final @CpmMicros long cpmMicros,
        final @EpochMillis long epochMillis,
        final long ingressNanos, final Responder responder, final AdminCommand command)
    {
        this.type = type;
        this.requestId = requestId;
        this.campaignId = campaignId;
        this.cpmMicros = cpmMicros;
        this.epochMillis = epochMillis;
        this.ingressNanos = ingressNanos;
        this.responder = responder;
        this.command = command;
        this.snapshot = null;
        this.gateway = GatewayIds.ANONYMOUS;
        this.reason = Reason.NONE;
    }

    /** Sets a snapshot request. */
    public void snapshot(final SnapshotCommand request, final @EpochMillis long epochMillis, final long ingressNanos)
    {
        fill(EventType.SNAPSHOT, 0, 0, NO_PRICE, epochMillis, ingressNanos, null, null);
        this.snapshot = request;
    }

    public EventType type()
    {
        return type;
    }

    /** The sender's identity id ({@link GatewayIds}); 0: anonymous or not a gateway's event. */
    public int gateway()
    {
        return gateway;
    }

    public long requestId()
    {
        return requestId;
    }

    public long campaignId()
    {
        return campaignId;
    }

    public @CpmMicros long cpmMicros()
    {
        return cpmMicros;
    }

    public @EpochMillis long epochMillis()
    {
        return epochMillis;
    }

    public long ingressNanos()
    {
        return ingressNanos;
    }

    public Reason reason()
    {
        return reason;
    }

    /** Where a bid's answer goes, or an end of stream's connection; else null. */
    public Responder responder()
    {
        return responder;
    }

    /** An admin update or query, else null. */
    public AdminCommand command()
    {
        return command;
    }

    /** A snapshot request, else null. */
    public SnapshotCommand snapshotCommand()
    {
        return snapshot;
    }

    /** Clears the slot's references once its event is answered, so nothing outlives it. */
    public void release()
    {
        responder = null;
        command = null;
        snapshot = null;
    }

    /** The definitions of a {@link EventType#CAMPAIGN_BATCH}, else null. */
    public List<CampaignDefinition> definitions()
    {
        return command == null ? null : command.definitions();
    }

    /** The definition of a {@link EventType#CAMPAIGN_UPDATE}, else null. */
    public CampaignDefinition definition()
    {
        return command == null ? null : command.definition();
    }

    @Override
    public String toString()
    {
        return "PacerEvent{" + type + ", requestId=" + requestId + ", campaignId=" + Long.toUnsignedString(campaignId) +
            ", cpmMicros=" + cpmMicros + ", epochMillis=" + epochMillis + '}';
    }
}
