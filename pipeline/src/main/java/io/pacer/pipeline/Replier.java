package io.pacer.pipeline;

import com.lmax.disruptor.EventHandler;
import io.pacer.pipeline.journal.Journaler;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.ArrayList;
import java.util.List;

/**
 * Runs after every shard: turns decisions into answers. Bid answers are appended to their
 * connection's pending batch and each touched connection is flushed once at the end of the ring
 * batch. Admin commands are completed here, after every shard has applied them. It also clears
 * the slot's references so that nothing outlives its event.
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
    private long journalFailures;

    /** Told about every answered bid, on the replier thread (metrics hook). */
    @FunctionalInterface
    public interface DecisionListener
    {
        void onDecision(PacerEvent event);

        DecisionListener NONE = event -> {};
    }

    public Replier(final DecisionListener decisions)
    {
        this(decisions, null);
    }

    /** @param journal journals each batch before its answers leave; null for none */
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
            if (journal != null)
            {
                journal.append(event);
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
                decisions.onDecision(event);
            }
            else if (event.command != null)
            {
                commands.add(event.command);
            }
            else if (event.snapshot != null)
            {
                // covers every journal record appended before this point
                event.snapshot.covered(journal == null ? -1 : journal.writer().nextSequence());
                snapshots.add(event.snapshot);
            }
        }
        finally
        {
            event.responder = null;
            event.command = null;
            event.snapshot = null;
            if (endOfBatch)
            {
                endBatch();
            }
        }
    }

    /** Journal first; then answers, admin completions and closes, in that order. */
    private void endBatch()
    {
        if (journal != null)
        {
            try
            {
                journal.endOfBatch();
            }
            catch (final RuntimeException ex)
            {
                // answering anyway keeps the one-answer-per-request contract; failing closed on a
                // broken journal is the robustness work's to add
                if (journalFailures++ % 1000 == 0)
                {
                    LOG.error("JOURNAL WRITE FAILED ({} so far); answers of this batch leave unjournaled", journalFailures, ex);
                }
            }
        }
        for (int i = 0, size = touched.size(); i < size; i++)
        {
            touched.get(i).flush();
        }
        touched.clear();
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

    /** Batches whose journal write failed. */
    public long journalFailures()
    {
        return journalFailures;
    }
}
