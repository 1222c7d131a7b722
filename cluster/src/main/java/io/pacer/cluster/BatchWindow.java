package io.pacer.cluster;

import io.aeron.Publication;
import io.aeron.cluster.client.AeronCluster;
import io.pacer.pipeline.Responder;

/**
 * The batches a node has sent to its cluster and not yet had answered, in a ring of
 * {@link AnswerWindow#CAPACITY} reused {@link OutBatch}es: batches {@code [head, next)} are in
 * flight, those from {@code send} on are still to be offered (a resend moves {@code send} back to
 * the head). At most {@code CAPACITY - 1} are in flight, so a resend always finds its answers in
 * the members' windows. One thread (the node's {@link ClusterIngress}) uses it.
 */
final class BatchWindow
{
    private static final int CAPACITY = AnswerWindow.CAPACITY;
    private static final int MASK = CAPACITY - 1;

    private final OutBatch[] batches = new OutBatch[CAPACITY];
    private final int origin;
    private final int messageBudget;
    /** The next batch's number; batches [head, next) are in flight. */
    private long next;
    private long head;
    /** The next batch to offer. */
    private long send;
    /** The batch being filled, or null. */
    private OutBatch open;
    private long backPressured;
    private long resent;

    /**
     * @param origin        the node's member id, in every batch
     * @param first         the number of this life's first batch
     * @param messageBudget the largest encoded batch
     */
    BatchWindow(final int origin, final long first, final int messageBudget)
    {
        this.origin = origin;
        this.messageBudget = messageBudget;
        for (int i = 0; i < CAPACITY; i++)
        {
            batches[i] = new OutBatch();
        }
        this.next = first;
        this.head = first;
        this.send = first;
    }

    /** Whether another batch may be opened. */
    boolean hasRoom()
    {
        return next - head < CAPACITY - 1;
    }

    /** Batches sealed and not yet answered. */
    int inFlight()
    {
        return (int)(next - head);
    }

    /**
     * The open batch, with room for an event and {@code definitionBytes} more (the full one is
     * sealed first); null if a new batch is needed and the window has no room for it.
     */
    OutBatch room(final int definitionBytes)
    {
        if (open != null && (open.full() || open.sizeWith(definitionBytes) > messageBudget))
        {
            seal();
        }
        if (open == null)
        {
            if (!hasRoom())
            {
                return null;
            }
            open = batches[(int)next & MASK];
            open.reset(next);
        }
        return open;
    }

    /** Whether an encoded batch of {@code size} bytes would be too large for one message. */
    boolean tooLarge(final int size)
    {
        return size > messageBudget;
    }

    /** Closes the open batch, if it holds anything: it gets its number and waits to be offered. */
    void seal()
    {
        if (open != null && open.count > 0)
        {
            open.encode(origin);
            next++;
            open = null;
        }
    }

    /** Offers every batch not yet offered, in order, until the client refuses one; returns how many went. */
    int send(final AeronCluster client, final long nowNanos)
    {
        int sent = 0;
        while (send < next)
        {
            final OutBatch batch = batches[(int)send & MASK];
            if (!batch.answered)
            {
                final long result = client.offer(batch.message(), 0, batch.messageLength());
                if (result < 0)
                {
                    if (result == Publication.BACK_PRESSURED)
                    {
                        backPressured++;
                    }
                    break;
                }
                batch.sentAtNanos = nowNanos;
                sent++;
            }
            send++;
        }
        return sent;
    }

    /** Offers every unanswered batch again, from the oldest. */
    void resendAll()
    {
        resent += send - head;
        send = head;
    }

    /** The oldest unanswered batch if it was offered more than {@code lateNanos} ago, else null. */
    OutBatch lateHead(final long nowNanos, final long lateNanos)
    {
        // below send, every unanswered batch has been offered since the last resend
        if (head < send)
        {
            final OutBatch oldest = batches[(int)head & MASK];
            if (nowNanos - oldest.sentAtNanos > lateNanos)
            {
                return oldest;
            }
        }
        return null;
    }

    /** The in-flight batch numbered {@code seq} if it has {@code count} events and no answer yet, else null. */
    OutBatch awaiting(final long seq, final int count)
    {
        if (seq < head || seq >= next)
        {
            return null;
        }
        final OutBatch batch = batches[(int)seq & MASK];
        return batch.answered || count != batch.count ? null : batch;
    }

    /** {@code batch} has been answered: it is emptied, and the head moves past every answered batch. */
    void answered(final OutBatch batch)
    {
        batch.reset(batch.seq);
        batch.answered = true;
        while (head < next && batches[(int)head & MASK].answered)
        {
            head++;
        }
        if (send < head)
        {
            send = head;
        }
    }

    /** The batch a read taken now must wait for: the open one, else the newest in flight, else none (0). */
    long readBarrier()
    {
        if (open != null && open.count > 0)
        {
            return open.seq;
        }
        return next > head ? next - 1 : 0;
    }

    /**
     * Closes {@code responder} once every answer taken before is out: after the newest batch
     * (open or in flight), or now if there is none.
     */
    void endOfStream(final Responder responder)
    {
        final long last = readBarrier();
        if (last == 0)
        {
            responder.endOfStream();
        }
        else
        {
            batches[(int)last & MASK].endOfStreams.add(responder);
        }
    }

    /** Fails every admin command still waiting, open batch included (the node is stopping). */
    void failCommands(final Throwable why)
    {
        for (long seq = head; seq < next; seq++)
        {
            batches[(int)seq & MASK].failCommands(why);
        }
        if (open != null)
        {
            open.failCommands(why);
        }
    }

    /** Offers refused because the ingress was back-pressured. */
    long backPressured()
    {
        return backPressured;
    }

    /** Batches offered again by {@link #resendAll}. */
    long resent()
    {
        return resent;
    }
}
