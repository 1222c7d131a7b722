package io.pacer.server.audit;

import io.pacer.cluster.ClusterLogAudit;
import io.pacer.model.PacingPolicy;
import io.pacer.pipeline.journal.JournalHeader;
import io.pacer.pipeline.journal.JournalReader;
import io.pacer.server.config.PacerConfig;

import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * {@code pacer replay --cluster-dir}: a stopped cluster member's recorded log, decided again from
 * its start and projected into a journal that the rest of {@code replay} audits; and the member's
 * own journal compared with that projection, record by record.
 */
public final class ClusterLogCheck
{
    /** Segment size of the projected journal. */
    private static final long SEGMENT_BYTES = 256L << 20;

    private ClusterLogCheck()
    {
    }

    /**
     * Projects the log of the member in {@code memberDir} into {@code into} and compares the
     * member's journal with it, reporting both on {@code err}.
     *
     * @return whether the member's journal agrees with its log (or it has none)
     */
    public static boolean project(final Path memberDir, final Path into, final PrintStream err)
    {
        final Path own = ClusterLogAudit.memberJournal(memberDir);
        final JournalHeader header = header(own);
        final int shards;
        final PacingPolicy policy;
        if (header != null)
        {
            shards = header.shards();
            policy = header.policy();
        }
        else
        {
            // no journal of its own to say what the cluster decided with: this node's configuration
            final PacerConfig config = PacerConfig.load(null);
            shards = config.pipeline().shards();
            policy = config.pipeline().policy();
        }
        final ClusterLogAudit.Projection projection = ClusterLogAudit.project(memberDir, into, shards, policy, SEGMENT_BYTES);
        err.printf("pacer replay: the log in %s: %,d bytes, %,d node batches decided again, %,d resent batches answered " +
                "from the window, %,d ticks: %,d journal records%n", memberDir, projection.logBytes(), projection.batches(),
            projection.duplicateBatches(), projection.ticks(), projection.records());
        if (header == null)
        {
            err.printf("pacer replay: %s has no journal of its own to compare%n", memberDir);
            return true;
        }
        final ClusterLogAudit.Comparison comparison = ClusterLogAudit.compare(own, into);
        if (comparison.firstDifference() >= 0)
        {
            err.printf("pacer replay: the member's journal differs from its log at record %,d%n", comparison.firstDifference());
            return false;
        }
        err.printf("pacer replay: the member's journal (%,d records) equals its log's projection in the %,d records both hold%n",
            comparison.memberRecords(), comparison.compared());
        return true;
    }

    private static JournalHeader header(final Path journal)
    {
        if (!Files.isDirectory(journal))
        {
            return null;
        }
        final JournalHeader[] first = new JournalHeader[1];
        new JournalReader(journal).read((record, header) ->
        {
            if (first[0] == null)
            {
                first[0] = header;
            }
        }, false);
        return first[0];
    }
}
