package io.pacer.client;

import io.pacer.wire.ErrorCode;
import io.pacer.wire.FrameEncoder;
import io.pacer.wire.FrameListener;
import io.pacer.wire.Reason;
import org.agrona.ExpandableArrayBuffer;
import org.agrona.MutableDirectBuffer;
import org.agrona.concurrent.MessageHandler;
import org.agrona.concurrent.UnsafeBuffer;
import org.agrona.concurrent.ringbuffer.ManyToOneRingBuffer;
import org.agrona.concurrent.ringbuffer.RingBufferDescriptor;

import java.nio.ByteBuffer;

/**
 * The protocol state of one connection to a pacer node, with no I/O of its own: callers on any
 * thread put commands in its ring; its event-loop thread drains them into frames, matches answers
 * to requests, fails safe the requests past their deadline, and keeps every notice until the
 * pacer is known to have read it. Nothing here allocates per bid.
 *
 * <p>A notice is known to be read when a bid written after it on the same connection is answered
 * from the pacer's ring: the pacer reads a connection in order and decides a bid in the ring only
 * after journaling what came before it. Two answers may come from before the ring, and
 * acknowledge nothing: OVERLOADED (a full ring) and UNKNOWN_CAMPAIGN (also the answer for a
 * campaign outside the gateway's permitted ids, given at once). When no bid follows, a probe (a bid
 * of 0, answered INVALID_REQUEST from the ring whatever the gateway's ids, reserving nothing) asks,
 * at most once a probe interval. A gateway identity that may send notices may send such a probe even
 * if it may not bid.
 *
 * <p>Over 300 lines because one connection's protocol state (in-flight bids, unacknowledged
 * notices, probes, reconnects) is touched only by its transport thread and is kept in one place for
 * that reason; {@link InFlightTable} already holds the bid table.
 */
final class ClientSession implements FrameListener
{
    static final int BID = 1;
    static final int WIN = 2;
    static final int LOSS = 3;
    /** requestId, campaignId, bid or price, correlation id, submit time. */
    static final int COMMAND_LENGTH = 40;

    private final PacerClient client;
    private final NodeLink node;
    private final ClientStats stats;
    private final long deadlineNanos;
    private final long probeIntervalNanos;
    private final ManyToOneRingBuffer commands;
    private final MessageHandler onCommand = this::onCommand;
    private final FrameEncoder encoder = new FrameEncoder();
    private final ExpandableArrayBuffer out = new ExpandableArrayBuffer(4096);
    private int outLength;
    private final InFlightTable inFlight;
    private final NoticeLog unacknowledged = new NoticeLog();

    private long bidsWritten;
    /**
     * The latest of: when the unacknowledged notices began to wait (the log went from empty to not),
     * when the last answer from the ring came (one that acknowledges the notices written before its
     * bid: while they keep coming, no probe is needed), and when the last probe was written (probes
     * are at least a probe interval apart, whatever their answers). A probe is due a probe interval
     * after it.
     */
    private long probeQuietSinceNanos;
    private boolean probeInFlight;
    private boolean connected;
    private long nowNanos;

    ClientSession(final PacerClient client, final NodeLink node, final PacerClient.Context context)
    {
        this.client = client;
        this.node = node;
        this.stats = client.stats();
        this.deadlineNanos = context.deadline().toNanos();
        this.probeIntervalNanos = context.probeInterval().toNanos();
        this.commands = new ManyToOneRingBuffer(new UnsafeBuffer(
            ByteBuffer.allocateDirect(context.commandQueueBytes() + RingBufferDescriptor.TRAILER_LENGTH)));
        this.inFlight = new InFlightTable(context.maxInFlightPerConnection());
    }

    // ---- any thread ----

    /** Takes a place for one bid before it is queued or written; false when the table is full. */
    boolean admit()
    {
        return inFlight.admit();
    }

    /** Gives back a place taken by {@link #admit()} for a bid that was not queued after all. */
    void unadmit()
    {
        inFlight.unadmit();
    }

    /** Queues a command; false when the queue is full. */
    boolean offer(
        final int type, final long requestId, final long campaignId, final long value, final long correlationId,
        final long submittedNanos)
    {
        final int index = commands.tryClaim(type, COMMAND_LENGTH);
        if (index <= 0)
        {
            return false;
        }
        final org.agrona.concurrent.AtomicBuffer buffer = commands.buffer();
        buffer.putLong(index, requestId);
        buffer.putLong(index + 8, campaignId);
        buffer.putLong(index + 16, value);
        buffer.putLong(index + 24, correlationId);
        buffer.putLong(index + 32, submittedNanos);
        commands.commit(index);
        return true;
    }

    // ---- the event-loop thread ----

    void connected(final boolean up)
    {
        connected = up;
    }

    /** The time answers about to be read are measured at. */
    void clock(final long now)
    {
        nowNanos = now;
    }

    boolean isConnected()
    {
        return connected;
    }

    /** Writes queued commands and notices waiting for a connection into the outgoing bytes. */
    void drain(final long now)
    {
        nowNanos = now;
        if (connected)
        {
            node.takeWaitingNotices(this);
        }
        commands.read(onCommand, Integer.MAX_VALUE);
    }

    private void onCommand(final int type, final MutableDirectBuffer buffer, final int index, final int length)
    {
        final long requestId = buffer.getLong(index);
        final long campaignId = buffer.getLong(index + 8);
        final long value = buffer.getLong(index + 16);
        if (type == BID)
        {
            writeBid(requestId, campaignId, value, buffer.getLong(index + 24), buffer.getLong(index + 32));
        }
        else
        {
            notice(type, requestId, campaignId, value, false);
        }
    }

    /** On this session's loop (a queued bid, or one made in an answer's handler): writes an admitted bid. */
    void writeBid(
        final long requestId, final long campaignId, final long bidCpmMicros, final long correlationId,
        final long submittedNanos)
    {
        if (!connected)
        {
            // never written: nothing was reserved, nothing to release
            inFlight.notWritten();
            client.failSafe(correlationId, requestId, campaignId, ClientReason.CONNECTION_LOST);
            return;
        }
        inFlight.track(requestId, campaignId, correlationId, submittedNanos, ++bidsWritten, false);
        ensure(FrameEncoder.BID_REQUEST_LENGTH);
        outLength += encoder.bidRequest(out, outLength, requestId, campaignId, bidCpmMicros);
        stats.increment(ClientStats.Count.BIDS_SENT);
    }

    /** Writes a notice now if connected (kept until acknowledged), else hands it to the node to wait. */
    void notice(final int type, final long requestId, final long campaignId, final long price, final boolean resend)
    {
        if (!connected)
        {
            node.waitForConnection(type, requestId, campaignId, price, resend);
            return;
        }
        ensure(FrameEncoder.WIN_NOTICE_LENGTH);
        outLength += type == WIN ? encoder.winNotice(out, outLength, requestId, campaignId, price) :
            encoder.lossNotice(out, outLength, requestId, campaignId);
        if (unacknowledged.isEmpty())
        {
            quietSince(nowNanos);
        }
        unacknowledged.add(type, requestId, campaignId, price, bidsWritten);
        stats.increment(ClientStats.Count.NOTICES_SENT);
        if (resend)
        {
            stats.increment(ClientStats.Count.NOTICES_RESENT);
        }
    }

    @Override
    public void onBidResponse(final long requestId, final short decision, final short reason)
    {
        final int slot = inFlight.take(requestId);
        if (slot < 0)
        {
            stats.increment(ClientStats.Count.LATE_ANSWERS);
            return;
        }
        if (reason != Reason.OVERLOADED.value() && reason != Reason.UNKNOWN_CAMPAIGN.value())
        {
            quietSince(nowNanos);
            acknowledgeNoticesBefore(inFlight.writeIndex(slot));
        }
        final boolean probe = inFlight.isProbe(slot);
        final long correlationId = inFlight.correlationId(slot);
        final long campaignId = inFlight.campaignId(slot);
        final long latencyNanos = nowNanos - inFlight.sentAtNanos(slot);
        // the place is free before the handler runs: a handler that bids again may take it
        inFlight.free(slot);
        if (!probe)
        {
            client.answered(correlationId, requestId, campaignId, decision == 1, reason, latencyNanos);
        }
        else
        {
            probeInFlight = false;
        }
    }

    private void quietSince(final long nanos)
    {
        probeQuietSinceNanos = Math.max(probeQuietSinceNanos, nanos);
    }

    private void acknowledgeNoticesBefore(final long bidIndex)
    {
        final int acknowledged = unacknowledged.removeWrittenBefore(bidIndex);
        if (acknowledged > 0)
        {
            stats.add(ClientStats.Count.NOTICES_ACKNOWLEDGED, acknowledged);
            client.noticesAcknowledged(acknowledged);
        }
    }

    /**
     * Fails safe every request past its deadline, releasing what the pacer may have reserved for
     * it with a LossNotice, and probes when notices wait for acknowledgement with no bid after them.
     */
    void sweep(final long now)
    {
        nowNanos = now;
        int slot;
        while ((slot = inFlight.oldest()) >= 0 && now - inFlight.sentAtNanos(slot) >= deadlineNanos)
        {
            failSafeOldest(slot, ClientReason.DEADLINE_EXCEEDED);
        }
        if (connected && !probeInFlight && !unacknowledged.isEmpty() &&
            now - probeQuietSinceNanos >= probeIntervalNanos &&
            inFlight.hasFreeSlot())
        {
            probeInFlight = true;
            final long probeRequestId = client.nextRequestId();
            inFlight.track(probeRequestId, 0, 0, now, ++bidsWritten, true);
            quietSince(now);
            ensure(FrameEncoder.BID_REQUEST_LENGTH);
            outLength += encoder.bidRequest(out, outLength, probeRequestId, 0, 0);
            stats.increment(ClientStats.Count.PROBES);
        }
    }

    /**
     * Takes the oldest request out of flight; a bid fails safe with this reason and is released
     * by a LossNotice (written now, or kept for the next connection when this one is down).
     */
    private void failSafeOldest(final int slot, final int reason)
    {
        final long requestId = inFlight.requestId(slot);
        final long campaignId = inFlight.campaignId(slot);
        final long correlationId = inFlight.correlationId(slot);
        final boolean probe = inFlight.isProbe(slot);
        inFlight.takeOldest(slot);
        inFlight.free(slot);
        if (probe)
        {
            probeInFlight = false;
            return;
        }
        stats.increment(ClientStats.Count.RELEASES);
        client.noticeQueued();
        notice(LOSS, requestId, campaignId, 0, false);
        client.failSafe(correlationId, requestId, campaignId, reason);
    }

    /**
     * The connection dropped: every bid in flight fails safe (and is released once a connection
     * is back), and every notice not known to be read waits to be written again.
     */
    void disconnected()
    {
        connected = false;
        int slot;
        while ((slot = inFlight.oldest()) >= 0)
        {
            failSafeOldest(slot, ClientReason.CONNECTION_LOST);
        }
        probeInFlight = false;
        unacknowledged.moveTo(node);
        outLength = 0;
        commands.read(onCommand, Integer.MAX_VALUE);
    }

    /** Bytes written since the last {@link #clearOut()}. */
    int outLength()
    {
        return outLength;
    }

    UnsafeBuffer outBuffer(final UnsafeBuffer view)
    {
        view.wrap(out.byteArray(), 0, outLength);
        return view;
    }

    byte[] outArray()
    {
        return out.byteArray();
    }

    void clearOut()
    {
        outLength = 0;
    }

    /** Requests in flight (probes included). */
    int inFlight()
    {
        return inFlight.size();
    }

    private void ensure(final int bytes)
    {
        out.checkLimit(outLength + bytes);
    }

    @Override
    public void onErrorMessage(final long requestId, final int code, final int templateId)
    {
        client.pacerError(requestId, code, templateId);
    }

    @Override
    public void onInvalidFrame(final ErrorCode code, final long requestId, final int templateId)
    {
        client.pacerError(requestId, code.value(), templateId);
    }
}
