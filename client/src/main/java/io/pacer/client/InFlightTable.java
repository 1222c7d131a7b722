package io.pacer.client;

import org.agrona.collections.Long2LongHashMap;

import java.util.concurrent.atomic.AtomicLong;

/**
 * The requests one connection has written and not yet seen answered: a fixed table of slots
 * (primitive arrays, a free list), found by request id through a {@link Long2LongHashMap}, and
 * kept in send order in a growable queue that is the exact deadline order. Owned by the
 * connection's event loop, except {@link #admit()} and {@link #unadmit()}, which any thread calls.
 *
 * <p>Admission: every bid takes a place when it is made, on the caller's thread, before it is
 * queued; the place is given back when its slot is freed (answered, timed out, dropped) or when
 * the bid is never written. Bids admitted never outnumber the slots less one (kept for a probe),
 * so a queued bid always finds a slot, and a full table refuses its caller at once.
 */
final class InFlightTable
{
    private static final byte FREE = 0;
    private static final byte BID = 1;
    private static final byte PROBE = 2;
    private static final long NONE = -1;

    private final AtomicLong admitted = new AtomicLong();
    private final AtomicLong released = new AtomicLong();
    private final int admissionLimit;

    private final long[] requestIds;
    private final long[] campaignIds;
    private final long[] correlations;
    private final long[] sentAtNanos;
    private final long[] writeIndex;
    private final byte[] states;
    private final int[] generations;
    private final int[] freeSlots;
    private int freeCount;
    private final Long2LongHashMap slotByRequest;
    /** Requests in send order, as (generation << 32 | slot); answered ones are skipped on the way. */
    private long[] order = new long[1024];
    private int orderMask = 1023;
    private long head;
    private long tail;

    InFlightTable(final int capacity)
    {
        requestIds = new long[capacity];
        campaignIds = new long[capacity];
        correlations = new long[capacity];
        sentAtNanos = new long[capacity];
        writeIndex = new long[capacity];
        states = new byte[capacity];
        generations = new int[capacity];
        freeSlots = new int[capacity];
        for (int i = 0; i < capacity; i++)
        {
            freeSlots[i] = capacity - 1 - i;
        }
        freeCount = capacity;
        admissionLimit = capacity - 1;
        slotByRequest = new Long2LongHashMap(capacity * 2, 0.65f, NONE);
    }

    // ---- any thread ----

    /** Takes a place for one bid; false when every slot is taken or promised. */
    boolean admit()
    {
        if (admitted.incrementAndGet() - released.get() > admissionLimit)
        {
            admitted.decrementAndGet();
            return false;
        }
        return true;
    }

    /** Gives back a place taken by {@link #admit()} for a bid that was not queued after all. */
    void unadmit()
    {
        admitted.decrementAndGet();
    }

    // ---- the event-loop thread ----

    /** Gives back an admitted bid's place when it is never written. */
    void notWritten()
    {
        giveBack();
    }

    boolean hasFreeSlot()
    {
        return freeCount > 0;
    }

    /** Tracks a request just written; a probe's place is the one admission keeps free. */
    void track(
        final long requestId, final long campaignId, final long correlationId, final long sentNanos,
        final long bidIndex, final boolean probe)
    {
        final int slot = freeSlots[--freeCount];
        requestIds[slot] = requestId;
        campaignIds[slot] = campaignId;
        correlations[slot] = correlationId;
        sentAtNanos[slot] = sentNanos;
        writeIndex[slot] = bidIndex;
        states[slot] = probe ? PROBE : BID;
        slotByRequest.put(requestId, slot);
        if (tail - head == order.length)
        {
            growOrder();
        }
        order[(int)(tail & orderMask)] = ((long)generations[slot] << 32) | slot;
        tail++;
    }

    /** The slot of this request, no longer found by id; -1 when it is not in flight. */
    int take(final long requestId)
    {
        return (int)slotByRequest.remove(requestId);
    }

    /**
     * The slot of the oldest request still in flight, or -1; it stays in flight until
     * {@link #takeOldest(int)}.
     */
    int oldest()
    {
        while (head < tail)
        {
            final long entry = order[(int)(head & orderMask)];
            final int slot = (int)entry;
            if (states[slot] != FREE && generations[slot] == (int)(entry >>> 32))
            {
                return slot;
            }
            head++;
        }
        return -1;
    }

    /** Takes the request {@link #oldest()} returned out of the table's lookup; free its slot next. */
    void takeOldest(final int slot)
    {
        slotByRequest.remove(requestIds[slot]);
        head++;
    }

    /** Frees a slot taken by {@link #take} or {@link #takeOldest}; a bid's place is given back. */
    void free(final int slot)
    {
        if (states[slot] == BID)
        {
            giveBack();
        }
        states[slot] = FREE;
        generations[slot]++;
        freeSlots[freeCount++] = slot;
    }

    boolean isProbe(final int slot)
    {
        return states[slot] == PROBE;
    }

    long requestId(final int slot)
    {
        return requestIds[slot];
    }

    long campaignId(final int slot)
    {
        return campaignIds[slot];
    }

    long correlationId(final int slot)
    {
        return correlations[slot];
    }

    long sentAtNanos(final int slot)
    {
        return sentAtNanos[slot];
    }

    /** How many bids had been written on the connection when this one was (it included). */
    long writeIndex(final int slot)
    {
        return writeIndex[slot];
    }

    /** Requests in flight, probes included. */
    int size()
    {
        return slotByRequest.size();
    }

    /** Only this loop writes {@code released}: an ordered store is enough for the callers that read it. */
    private void giveBack()
    {
        released.lazySet(released.get() + 1);
    }

    private void growOrder()
    {
        final long[] grown = new long[order.length * 2];
        for (long seq = head; seq < tail; seq++)
        {
            grown[(int)(seq & (grown.length - 1))] = order[(int)(seq & orderMask)];
        }
        order = grown;
        orderMask = grown.length - 1;
    }
}
