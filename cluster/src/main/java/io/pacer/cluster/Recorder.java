package io.pacer.cluster;

import io.pacer.model.CampaignDefinition;

/**
 * Told every input the state applies, with its decision, in log order: what a member writes to
 * its audit journal ({@link MemberJournal}). Each record has the sequence the state numbered it
 * with, the same on every member and on every re-application of the log after a restart, so a
 * recorder can skip what it already holds.
 */
public interface Recorder
{
    void bid(long sequence, long epochMillis, long requestId, long campaignId, long cpmMicros, int reason);

    void notice(long sequence, boolean win, long epochMillis, long requestId, long campaignId, long cpmMicros);

    void define(long sequence, long epochMillis, CampaignDefinition definition);

    void tick(long sequence, long epochMillis);

    /** The end of one log message's records. */
    void endOfBatch();

    /** Records nothing. */
    Recorder NONE = new Recorder()
    {
        @Override
        public void bid(final long sequence, final long epochMillis, final long requestId, final long campaignId,
            final long cpmMicros, final int reason)
        {
        }

        @Override
        public void notice(final long sequence, final boolean win, final long epochMillis, final long requestId,
            final long campaignId, final long cpmMicros)
        {
        }

        @Override
        public void define(final long sequence, final long epochMillis, final CampaignDefinition definition)
        {
        }

        @Override
        public void tick(final long sequence, final long epochMillis)
        {
        }

        @Override
        public void endOfBatch()
        {
        }
    };
}
