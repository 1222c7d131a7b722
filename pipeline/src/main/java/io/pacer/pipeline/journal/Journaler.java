package io.pacer.pipeline.journal;

import io.pacer.pipeline.PacerEvent;

/**
 * What the replier journals each decided event to, batch by batch: {@link WritingJournaler}, or
 * {@link #NONE} when the journal is off.
 */
public interface Journaler extends AutoCloseable
{
    /** No journal: nothing is written, and a snapshot covers no journal sequence. */
    Journaler NONE = new Journaler()
    {
        @Override
        public void append(final PacerEvent event)
        {
        }

        @Override
        public void endOfBatch()
        {
        }

        @Override
        public long nextSequence()
        {
            return -1;
        }

        @Override
        public void close()
        {
        }
    };

    /** Appends one decided event to the current batch. */
    void append(PacerEvent event);

    /** Writes the batch; returns once the journal holds it (forced, under the BATCH policy). */
    void endOfBatch();

    /** The sequence the next record will get; -1 without a journal. */
    long nextSequence();

    /** Flushes and closes; a failure is logged, not thrown. */
    @Override
    void close();
}
