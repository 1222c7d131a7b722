package io.pacer.cluster;

import io.pacer.cluster.sbe.IngressBatchDecoder;
import io.pacer.cluster.sbe.MessageHeaderDecoder;
import io.pacer.model.PacingPolicy;
import io.pacer.pipeline.journal.JournalReader;
import io.pacer.pipeline.journal.JournalRecord;
import org.agrona.DirectBuffer;
import org.agrona.ExpandableArrayBuffer;
import org.agrona.collections.LongArrayList;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Objects;

/**
 * The audit of a member's own log: the log recorded in its archive ({@link ClusterLogReader}) is
 * decided again from the start by a fresh {@link PacerState}, exactly as the member's service
 * decided it, and projected into a journal in the pacer's format, which {@code bin/pacer replay}
 * then audits like any other. The member's own journal, written live, is compared with that
 * projection record by record: equal, it shows the member answered what its log implies.
 */
public final class ClusterLogAudit
{
    /**
     * What the projection found in the log.
     *
     * @param logBytes         the log's length
     * @param batches          node batches in it, decided
     * @param duplicateBatches resent batches in it, answered from the window
     * @param ticks            tick timer events
     * @param records          journal records projected
     */
    public record Projection(long logBytes, long batches, long duplicateBatches, long ticks, long records)
    {
    }

    /**
     * The member's journal against the projection.
     *
     * @param memberRecords    records in the member's journal
     * @param compared         records compared (the shorter of the two)
     * @param firstDifference  the sequence of the first record that differs, or -1
     */
    public record Comparison(long memberRecords, long compared, long firstDifference)
    {
    }

    private ClusterLogAudit()
    {
    }

    /** The journal the member writes as it applies its log: {@code memberDir/journal}. */
    public static Path memberJournal(final Path memberDir)
    {
        return memberDir.resolve("journal");
    }

    /**
     * Decides the member's log again and writes its projection into the empty directory {@code into}.
     *
     * @param shards and {@code policy}: what the cluster decided with (its members' configuration)
     */
    public static Projection project(final Path memberDir, final Path into, final int shards, final PacingPolicy policy,
        final long segmentBytes)
    {
        final PacerState state = new PacerState(shards, policy);
        final MemberJournal journal = new MemberJournal(into, shards, policy, segmentBytes);
        journal.open(0);
        state.recorder(journal);
        final MessageHeaderDecoder header = new MessageHeaderDecoder();
        final IngressBatchDecoder batch = new IngressBatchDecoder();
        final ExpandableArrayBuffer reasons = new ExpandableArrayBuffer(1024);
        final long[] counts = new long[3];
        final long logBytes;
        try
        {
            logBytes = new ClusterLogReader().read(memberDir, new ClusterLogReader.Handler()
            {
                @Override
                public void onSessionMessage(final long timestamp, final DirectBuffer buffer, final int offset,
                    final int length)
                {
                    header.wrap(buffer, offset);
                    if (header.schemaId() == IngressBatchDecoder.SCHEMA_ID &&
                        header.templateId() == IngressBatchDecoder.TEMPLATE_ID)
                    {
                        state.decide(batch.wrapAndApplyHeader(buffer, offset, header), timestamp, reasons);
                        counts[state.wasDuplicate() ? 1 : 0]++;
                    }
                }

                @Override
                public void onTimerEvent(final long correlationId, final long timestamp)
                {
                    if (correlationId == PacerClusteredService.TICK_TIMER)
                    {
                        state.tick(timestamp);
                        counts[2]++;
                    }
                }
            });
        }
        finally
        {
            journal.close();
        }
        if (journal.failed())
        {
            throw new IllegalStateException("the projection of the log into " + into + " could not be written");
        }
        return new Projection(logBytes, counts[0], counts[1], counts[2], state.records());
    }

    /** Compares the member's own journal with the projection of its log, record by record. */
    public static Comparison compare(final Path memberJournal, final Path projection)
    {
        final LongArrayList member = fingerprints(memberJournal);
        final LongArrayList projected = fingerprints(projection);
        final int compared = Math.min(member.size(), projected.size());
        long firstDifference = -1;
        for (int i = 0; i < compared; i++)
        {
            if (member.getLong(i) != projected.getLong(i))
            {
                firstDifference = i;
                break;
            }
        }
        return new Comparison(member.size(), compared, firstDifference);
    }

    /** One 64-bit fingerprint per record, in order (the member's journal numbers records from 0). */
    private static LongArrayList fingerprints(final Path dir)
    {
        final LongArrayList prints = new LongArrayList();
        if (!Files.isDirectory(dir))
        {
            return prints;
        }
        new JournalReader(dir).read((record, header) -> prints.addLong(fingerprint(record)), false);
        return prints;
    }

    @SuppressWarnings("EnumOrdinal") // a hash within one run of one version, never stored
    private static long fingerprint(final JournalRecord record)
    {
        long h = record.sequence();
        h = h * 31 + record.epochMillis();
        h = h * 31 + record.type().ordinal();
        h = h * 31 + record.requestId();
        h = h * 31 + record.campaignId();
        h = h * 31 + record.cpmMicros();
        h = h * 31 + record.reason();
        // the definition, not its text: a segment of either format hashes the same, and none is rendered
        h = h * 31 + Objects.hashCode(record.definition());
        return h;
    }
}
