package io.pacer.server;

import io.pacer.model.CampaignJson;
import io.pacer.model.CampaignSnapshot;
import io.pacer.model.PacingShard;
import io.pacer.pipeline.journal.JournalCorruptException;
import io.pacer.pipeline.journal.JournalHeader;
import io.pacer.pipeline.journal.JournalReader;
import io.pacer.pipeline.journal.JournalRecord;
import io.pacer.pipeline.journal.JournalReplay;
import io.pacer.pipeline.journal.NoticeCensus;
import io.pacer.server.audit.AuditReport;
import io.pacer.server.audit.ClusterLogCheck;
import io.pacer.server.audit.CsvExport;
import io.pacer.server.audit.EventLines;
import io.pacer.server.audit.Explainer;
import io.pacer.server.audit.JsonReports;
import io.pacer.server.audit.PointInTime;
import io.pacer.server.audit.RecordFilter;
import io.pacer.server.audit.WhatIf;
import io.pacer.server.audit.WhatIfChange;
import io.pacer.units.Units;
import io.pacer.wire.Reason;
import org.agrona.IoUtil;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

import java.io.IOException;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;

/**
 * {@code pacer replay}: re-runs a journal through the pacing code and audits it, or answers one
 * question about it: a campaign at an instant ({@code --until}), why a bid got its answer
 * ({@code --explain}), what other pacing would have done ({@code --what-if}); and exports it
 * ({@code --export}). Every mode replays the whole journal (up to {@code --until}) and compares
 * each re-made decision with the recorded one.
 */
@Command(
    name = "replay",
    mixinStandardHelpOptions = true,
    description = "Reads a journal, checks every record's CRC, re-runs the events through the same pacing code the "
        + "server runs, compares each re-made bid decision with the recorded one, and prints an audit: events by "
        + "type and, per campaign, bids, NO_BIDs by reason, wins, spend, budget, the peak of spent + reserved "
        + "against the budget, and late wins. --until, --explain and --what-if print their answer instead.",
    exitCodeListHeading = "%nExit codes:%n",
    exitCodeList = {"0:every decision reproduced", "1:other failure", "2:bad usage",
        "3:some decisions differ from the journal", "4:the journal is corrupt (file and offset on stderr)"})
final class ReplayCommand implements Callable<Integer>
{
    static final int MISMATCH = 3;
    static final int CORRUPT = 4;
    private static final int USAGE = 2;
    private static final String NO_SEGMENTS = "no journal segments (journal-<sequence>.log) in ";

    @Option(names = "--journal", paramLabel = "DIR",
        description = "The journal directory (a single node's pacer.journal.dir, or a cluster member's DIR/journal).")
    Path journal;

    @Option(names = "--cluster-dir", paramLabel = "DIR",
        description = "Instead of --journal: a stopped cluster member's pacer.cluster.dir. Its recorded log is decided "
            + "again from the start and projected into a journal, which is audited as a journal is; the member's own "
            + "journal is compared with that projection (exit 3 if they differ).")
    Path clusterDir;

    @Option(names = "--campaign", paramLabel = "ID", description = "Audit and print only this campaign.")
    String campaign;

    @Option(names = "--from", paramLabel = "INSTANT", description = "Count and print events from this instant (ISO-8601).")
    Instant from;

    @Option(names = "--to", paramLabel = "INSTANT", description = "Count and print events before this instant (ISO-8601).")
    Instant to;

    @Option(names = "--gateway", paramLabel = "NAME",
        description = "Count and print only the bids and notices this gateway identity sent (\"\" for gateways without one).")
    String gateway;

    @Option(names = "--events", description = "Print the matching events and decisions as JSON lines.")
    boolean events;

    @Option(names = "--format", defaultValue = "text", description = "text or json, which is UTF-8 whatever the locale (default: ${DEFAULT-VALUE}).")
    String format;

    @Option(names = "--until", paramLabel = "INSTANT",
        description = "With --campaign: replay the records stamped up to this instant (ISO-8601) and print the campaign's "
            + "state then: spent, reserved, today's spend, open reservations, the plan line (JSON: the admin API's body).")
    Instant until;

    @Option(names = "--explain", paramLabel = "REQUEST_ID",
        description = "Print each bid with this request id: its decision, the rule that gave it and the numbers it compared.")
    String explain;

    @Option(names = "--what-if", paramLabel = "SETTING",
        description = "Replay under a change and print delivery, overspend and slot RMSE beside what happened: "
            + "pacing.replan-interval=5s, pacing.reservation-ttl=10s, pacing.notice-dedupe-window=2m, "
            + "campaign.pacing=EVEN|ASAP. Repeatable.")
    List<String> whatIf = new ArrayList<>();

    @Option(names = "--what-if-campaign", paramLabel = "FILE",
        description = "A campaigns file whose definitions replace, in the what-if replay, every recorded definition of the same id.")
    Path whatIfCampaigns;

    @Option(names = "--slot", defaultValue = "PT1H", paramLabel = "DURATION",
        description = "The slot of --what-if's slot RMSE, ISO-8601 (default: ${DEFAULT-VALUE}).")
    Duration slot;

    @Option(names = "--export", arity = "2", paramLabel = "FORMAT DIR",
        description = "Also write DIR/events.csv (one row per decision and notice) and DIR/hourly.csv, DIR/daily.csv "
            + "(per campaign, in its time zone). FORMAT: csv.")
    List<String> export;

    @Override
    public Integer call()
    {
        final int code = clusterDir == null ? audit(true) : clusterAudit();
        // System.out keeps a write's failure to itself: a report cut short by a full disk or a closed
        // pipe must not exit as if it were whole
        if (System.out.checkError())
        {
            System.err.println("pacer replay: could not write all of the output to standard output");
            return code == 0 ? 1 : code;
        }
        return code;
    }

    /** The audit of the log a cluster member in {@link #clusterDir} holds, projected as a journal. */
    private int clusterAudit()
    {
        if (journal != null)
        {
            System.err.println("pacer replay: give --journal or --cluster-dir, not both");
            return USAGE;
        }
        if (!Files.isDirectory(clusterDir.resolve("consensus")))
        {
            System.err.println("pacer replay: no cluster member in " + clusterDir + " (no consensus directory)");
            return USAGE;
        }
        Path projected = null;
        try
        {
            projected = Files.createTempDirectory("pacer-cluster-log");
            final boolean agrees = ClusterLogCheck.project(clusterDir, projected, System.err);
            journal = projected;
            final int audited = audit(false);
            return agrees ? audited : MISMATCH;
        }
        catch (final IOException | RuntimeException ex)
        {
            System.err.println("pacer replay: " + ex.getMessage());
            return 1;
        }
        finally
        {
            deleteQuietly(projected);
        }
    }

    /** Flushes the events; a write that fails here is left to {@link #call}, which finds stdout's error and says so. */
    private static void flushQuietly(final EventLines events)
    {
        try
        {
            events.flush();
        }
        catch (final UncheckedIOException lost)
        {
            // standard output's own error flag has it
        }
    }

    private static void deleteQuietly(final Path dir)
    {
        if (dir != null)
        {
            IoUtil.delete(dir.toFile(), error -> System.err.println("pacer replay: could not remove " + dir + ": " + error));
        }
    }

    /**
     * The audit of {@link #journal}, or its question; {@code saysEmpty}: says so on standard error if
     * nothing was journaled there (a cluster member's projection says it itself).
     */
    private int audit(final boolean saysEmpty)
    {
        final String usage = usage();
        if (usage != null)
        {
            System.err.println("pacer replay: " + usage);
            return USAGE;
        }
        if (saysEmpty && JournalReader.segments(journal).isEmpty())
        {
            // a server makes its first segment with its first event: nothing was journaled, which is said, not an error
            System.err.println("pacer replay: " + NO_SEGMENTS + journal + ": nothing was journaled there");
        }
        final RecordFilter filter = new RecordFilter(campaign == null ? null : Long.parseUnsignedLong(campaign), gateway,
            from == null ? Units.MIN_INSTANT : Units.epochMillis(from.toEpochMilli()),
            to == null ? Units.MAX_INSTANT : Units.epochMillis(to.toEpochMilli()));
        final List<JournalReplay.Observer> observers = new ArrayList<>();
        final EventLines eventLines = events ? new EventLines(System.out) : null;
        final AuditReport audit = new AuditReport(filter, eventLines);
        observers.add(audit);
        final Explainer explainer = explain == null ? null : new Explainer(Long.parseUnsignedLong(explain), filter);
        final WhatIf what;
        final CsvExport csv;
        try
        {
            what = whatIf.isEmpty() && whatIfCampaigns == null ? null :
                new WhatIf(WhatIfChange.parse(whatIf, whatIfCampaigns), filter, slot);
            csv = export == null ? null : new CsvExport(Path.of(export.get(1)), filter);
        }
        catch (final IllegalArgumentException ex)
        {
            System.err.println("pacer replay: " + ex.getMessage());
            return USAGE;
        }
        catch (final IOException ex)
        {
            System.err.println("pacer replay: " + ex);
            return 1;
        }
        if (explainer != null)
        {
            observers.add(explainer);
        }
        if (what != null)
        {
            observers.add(what);
        }
        if (csv != null)
        {
            observers.add(csv);
        }
        final JournalReader reader = new JournalReader(journal);
        final JournalReplay replay;
        boolean exported = csv == null;
        try
        {
            try
            {
                replay = JournalReplay.ofJournal(reader, all(observers),
                    until == null ? Units.MAX_INSTANT : Units.epochMillis(until.toEpochMilli()));
            }
            finally
            {
                if (eventLines != null)
                {
                    // the events before anything printed after them, a failure's message included
                    flushQuietly(eventLines);
                }
            }
            if (csv != null)
            {
                csv.close();
                exported = true;
            }
        }
        catch (final JournalCorruptException ex)
        {
            System.err.println("pacer replay: journal corrupt: " + ex.getMessage());
            return CORRUPT;
        }
        catch (final WhatIfChange.Invalid ex)
        {
            System.err.println("pacer replay: " + ex.getMessage());
            return USAGE;
        }
        catch (final IOException | UncheckedIOException ex)
        {
            // the journal's reader, the export's files, or the events' standard output
            System.err.println("pacer replay: " + (ex.getCause() == null ? ex : ex.getCause()));
            return 1;
        }
        finally
        {
            if (!exported)
            {
                csv.abandon();
                System.err.println("pacer replay: the export in " + export.get(1) + " is incomplete");
            }
        }
        final boolean json = "json".equals(format);
        final PrintStream out = System.out;
        if (until != null)
        {
            final CampaignSnapshot state = replay == null ? null : replay.state(filter.campaignId());
            if (state == null)
            {
                System.err.println("pacer replay: campaign " + campaign + " was not defined by " + until);
                return 1;
            }
            if (json)
            {
                JsonReports.println(out, CampaignJson.state(state));
            }
            else
            {
                out.print(PointInTime.text(state));
            }
        }
        else if (explainer != null)
        {
            if (json)
            {
                JsonReports.println(out, explainer.json());
            }
            else
            {
                out.print(explainer.text());
            }
        }
        else if (what != null)
        {
            if (json)
            {
                what.printJson(out);
            }
            else
            {
                what.printText(out);
            }
        }
        else if (!events)
        {
            if (json)
            {
                audit.printJson(journal, reader, replay, out);
            }
            else
            {
                audit.printText(journal, reader, replay, out);
            }
        }
        if (csv != null)
        {
            System.err.printf("pacer replay: exported %,d rows to %s%n", csv.rows(), export.get(1));
        }
        final long mismatches = replay == null ? 0 : replay.mismatches();
        if (mismatches > 0)
        {
            System.err.println("pacer replay: " + mismatches + " decision(s) differ from the journal; first at sequence " +
                replay.firstMismatchSequence());
            return MISMATCH;
        }
        return 0;
    }

    /** What is wrong with the options, or null. */
    private String usage()
    {
        if (journal == null)
        {
            return "give --journal DIR (or --cluster-dir DIR)";
        }
        if (!Files.isDirectory(journal))
        {
            return "no such journal directory: " + journal;
        }
        if (JournalReader.segments(journal).isEmpty() && !JournalReader.segments(journal.resolve("journal")).isEmpty())
        {
            // the directory above the journal (pacer.home's data): its audit would report nothing, like a quiet day
            return NO_SEGMENTS + journal + "; did you mean --journal " +
                journal.resolve("journal") + "?";
        }
        if (!"text".equals(format) && !"json".equals(format))
        {
            return "--format must be text or json";
        }
        final int questions = (until == null ? 0 : 1) + (explain == null ? 0 : 1) +
            (whatIf.isEmpty() && whatIfCampaigns == null ? 0 : 1);
        if (questions > 1)
        {
            return "--until, --explain and --what-if answer different questions: give one";
        }
        if (until != null && campaign == null)
        {
            return "--until needs --campaign ID";
        }
        if (export != null && !"csv".equals(export.get(0)))
        {
            return "--export " + export.get(0) + ": only csv is written (Parquet: load the CSV into DuckDB and "
                + "COPY ... TO 'events.parquet'; see docs/operations.md)";
        }
        try
        {
            if (campaign != null)
            {
                Long.parseUnsignedLong(campaign);
            }
            if (explain != null)
            {
                Long.parseUnsignedLong(explain);
            }
        }
        catch (final NumberFormatException ex)
        {
            return "--campaign and --explain take an unsigned 64-bit id: " + ex.getMessage();
        }
        return null;
    }

    /** One observer telling each of {@code observers}, in order: the one itself if there is one (the audit alone). */
    private static JournalReplay.Observer all(final List<JournalReplay.Observer> observers)
    {
        if (observers.size() == 1)
        {
            return observers.get(0);
        }
        final JournalReplay.Observer[] each = observers.toArray(new JournalReplay.Observer[0]);
        return new JournalReplay.Observer()
        {
            @Override
            public void applied(final JournalRecord record, final Reason replayed, final PacingShard shard)
            {
                for (final JournalReplay.Observer observer : each)
                {
                    observer.applied(record, replayed, shard);
                }
            }

            @Override
            public void begin(final JournalHeader header, final NoticeCensus census)
            {
                for (final JournalReplay.Observer observer : each)
                {
                    observer.begin(header, census);
                }
            }

            @Override
            public long touch(final JournalRecord[] block, final int count)
            {
                long read = 0;
                for (final JournalReplay.Observer observer : each)
                {
                    read += observer.touch(block, count);
                }
                return read;
            }
        };
    }
}
