package io.pacer.pipeline.journal;

import io.pacer.model.CampaignDefinition;
import io.pacer.pipeline.PacerEvent;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The {@link Journaler} that writes to a {@link JournalWriter}: journals every input the pacing logic saw, with the decision it made, in ring order. The
 * replier drives it: it appends each event after the shards have decided it, and at the end of
 * a ring batch writes the batch (one write, an fsync by policy) before any answer of the batch
 * leaves. State queries advance shard time, so they are journaled as ticks; end-of-stream
 * markers change nothing and are not journaled.
 */
public final class WritingJournaler implements Journaler
{
    private static final Logger LOG = LoggerFactory.getLogger(WritingJournaler.class);

    private final JournalWriter writer;

    public WritingJournaler(final JournalWriter writer)
    {
        this.writer = writer;
    }

    @Override
    public void append(final PacerEvent event)
    {
        switch (event.type())
        {
            case BID_REQUEST -> writer.bid(event.epochMillis(), event.requestId(), event.campaignId(), event.cpmMicros(),
                event.reason().value(), event.gateway());
            case WIN_NOTICE -> writer.notice(true, event.epochMillis(), event.requestId(), event.campaignId(),
                event.cpmMicros(), event.gateway());
            case LOSS_NOTICE -> writer.notice(false, event.epochMillis(), event.requestId(), event.campaignId(),
                PacerEvent.NO_PRICE, event.gateway());
            case CAMPAIGN_UPDATE -> writer.define(event.epochMillis(), event.definition());
            case CAMPAIGN_BATCH ->
            {
                for (final CampaignDefinition definition : event.definitions())
                {
                    writer.define(event.epochMillis(), definition);
                }
            }
            case TICK, STATE_QUERY -> writer.tick(event.epochMillis());
            default ->
            {
                // END_OF_STREAM: not an input to pacing
            }
        }
    }

    @Override
    public void endOfBatch()
    {
        writer.endOfBatch();
    }

    @Override
    public void close()
    {
        try
        {
            writer.close();
        }
        catch (final RuntimeException ex)
        {
            LOG.error("JOURNAL could not be flushed and closed: what the last batches wrote may not be on disk", ex);
        }
    }

    @Override
    public long nextSequence()
    {
        return writer.nextSequence();
    }

    public JournalWriter writer()
    {
        return writer;
    }
}
