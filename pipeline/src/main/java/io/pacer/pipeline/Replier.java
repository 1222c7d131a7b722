package io.pacer.pipeline;

import com.lmax.disruptor.EventHandler;
import io.pacer.pipeline.journal.Journaler;
import io.pacer.wire.Reason;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.ArrayList;
import java.util.List;

/**
 * Runs after every shard: turns decisions into answers. Bid answers are appended to their
 * connection's pending batch and each touched connection is flushed once at the end of the ring
 * batch. Admin commands are completed here, after every shard has applied them. It also clears
 * the slot's references so that nothing outlives its event.
 * <p>
 * With a journal, no answer leaves before its batch is written. If a write or an fsync fails
 * (disk full, I/O error), the pacer fails closed: the batch's BIDs are withdrawn (answered
 * NO_BID / OVERLOADED; their reservations expire unused), every later bid is answered the same,
 * nothing more is journaled (the journal would have a gap), and {@link #journalFailed()} stays
 * true until a restart, which recovers from what the journal holds.
 */
public final class Replier implements EventHandler<PacerEvent>
{
    private static final Logger LOG = LoggerFactory.getLogger(Replier.class);

    private final List<Responder> touched = new ArrayList<>();
    private final List<AdminCommand> commands = new ArrayList<>();
    private final List<Responder> ended = new ArrayList<>();
    private final List<SnapshotCommand> snapshots = new ArrayList<>();
    private final DecisionListener decisions;
    private final Journaler journal;
    private boolean failedClosed;
    private volatile Throwable journalFailure;

    /** Told about every answered bid, on the replier's thread (metrics hook). */
    @FunctionalInterface
    public interface DecisionListener
    {
        /**
         * A bid's answer was added to its connection's batch.
         *
         * @param reason       the answer's reason code (0: BID)
         * @param ingressNanos when the gateway thread read the bid ({@link System#nanoTime()})
         */
        void onDecision(int reason, long ingressNanos);

        /** The batch's answers have been handed to their connections (one clock read per batch, not per bid). */
        default void onBatchAnswered()
        {
        }

        DecisionListener NONE = (reason, ingressNanos) -> {};
    }

    public Replier(final DecisionListener decisions)
    {
        this(decisions, Journaler.NONE);
    }

    /** @param journal journals each batch before its answers leave; {@link Journaler#NONE} for none */
    public Replier(final DecisionListener decisions, final Journaler journal)
    {
        this.decisions = decisions;
        this.journal = journal;
    }

    @Override
    public void onEvent(final PacerEvent event, final long sequence, final boolean endOfBatch)
    {
        try
        {
            if (!failedClosed)
            {
                try
                {
                    journal.append(event);
                }
                catch (final RuntimeException ex)
                {
                    failClosed(ex);
                }
            }
            if (failedClosed && event.type == EventType.BID_REQUEST && event.reason == Reason.NONE)
            {
                event.reason = Reason.OVERLOADED;
            }
            final Responder responder = event.responder;
            if (event.type == EventType.END_OF_STREAM)
            {
                ended.add(responder);
            }
            else if (responder != null)
            {
                if (responder.append(event.requestId, event.reason))
                {
                    touched.add(responder);
                }
                decisions.onDecision(event.reason().value(), event.ingressNanos());
            }
            else if (event.command != null)
            {
                commands.add(event.command);
            }
            else if (event.snapshot != null)
            {
                // covers every journal record appended before this point
                event.snapshot.covered(journal.nextSequence());
                snapshots.add(event.snapshot);
            }
        }
        finally
        {
            event.release();
            if (endOfBatch)
            {
                endBatch();
            }
        }
    }

    /** Journal first; then answers, admin completions and closes, in that order. */
    private void endBatch()
    {
        if (!failedClosed)
        {
            try
            {
                journal.endOfBatch();
            }
            catch (final RuntimeException ex)
            {
                failClosed(ex);
            }
        }
        if (failedClosed)
        {
            // BIDs appended before the failure showed in this batch must not leave
            for (int i = 0, size = touched.size(); i < size; i++)
            {
                touched.get(i).withdrawBids();
            }
        }
        for (int i = 0, size = touched.size(); i < size; i++)
        {
            touched.get(i).flush();
        }
        touched.clear();
        decisions.onBatchAnswered();
        for (int i = 0, size = commands.size(); i < size; i++)
        {
            commands.get(i).completeFromShards();
        }
        commands.clear();
        for (int i = 0, size = ended.size(); i < size; i++)
        {
            ended.get(i).endOfStream();
        }
        ended.clear();
        for (int i = 0, size = snapshots.size(); i < size; i++)
        {
            snapshots.get(i).complete(snapshots.get(i));
        }
        snapshots.clear();
    }

    private void failClosed(final RuntimeException cause)
    {
        failedClosed = true;
        journalFailure = cause;
        LOG.error("JOURNAL WRITE FAILED: the pacer now FAILS CLOSED - no more BIDs, /health is DOWN, nothing more " +
            "is journaled. Fix the disk and restart; recovery replays what the journal holds.", cause);
    }

    /** Whether the journal failed and the pacer answers no more BIDs (any thread). */
    public boolean journalFailed()
    {
        return journalFailure != null;
    }

    /** Why the journal failed, or null. */
    public Throwable journalFailure()
    {
        return journalFailure;
    }
}
