package io.pacer.server.audit;

import io.pacer.pipeline.EventType;
import io.pacer.pipeline.journal.JournalRecord;
import io.pacer.units.EpochMillis;

/**
 * Which records {@code pacer replay}'s reports count and print: {@code --campaign},
 * {@code --gateway}, {@code --from} and {@code --to}. Every record is still replayed; the filter
 * only chooses what is reported.
 *
 * @param campaignId  the one campaign to report, or null for all
 * @param gateway     the one gateway identity whose bids and notices to report, or null for all
 * @param fromMillis  the first instant reported
 * @param toMillis    the first instant no longer reported
 */
public record RecordFilter(Long campaignId, String gateway, @EpochMillis long fromMillis, @EpochMillis long toMillis)
{
    /** Whether the record concerns the campaign and gateway asked for (ticks never do). */
    public boolean concerns(final JournalRecord record)
    {
        return record.type() != EventType.TICK && (campaignId == null || campaignId == record.campaignId()) &&
            (gateway == null || (record.type().fromGateway() && gateway.equals(record.gatewayName())));
    }

    /** {@link #concerns} and within the time window. */
    public boolean matches(final JournalRecord record)
    {
        return concerns(record) && inWindow(record);
    }

    public boolean inWindow(final JournalRecord record)
    {
        return record.epochMillis() >= fromMillis && record.epochMillis() < toMillis;
    }
}
