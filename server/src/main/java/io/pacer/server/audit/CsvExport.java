package io.pacer.server.audit;

import io.pacer.model.CampaignBook;
import io.pacer.model.Money;
import io.pacer.model.PacingShard;
import io.pacer.pipeline.EventType;
import io.pacer.pipeline.journal.JournalRecord;
import io.pacer.pipeline.journal.JournalReplay;
import io.pacer.wire.Reason;
import org.agrona.ExpandableArrayBuffer;
import org.agrona.collections.Long2LongHashMap;

import java.io.BufferedOutputStream;
import java.io.BufferedWriter;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * {@code pacer replay --export csv DIR}: one row per decision and notice in {@code events.csv},
 * and per campaign, per hour and per day in the campaign's time zone, {@code hourly.csv} and
 * {@code daily.csv}. A win's {@code booked_nanos} is what the replayed shard booked for it (0 for
 * a resent duplicate or an unknown campaign), so the rollups add up to the campaign's spent, as
 * the admin API shows it, to the nano.
 *
 * <p>CSV and not Parquet: every analyst tool reads CSV (DuckDB, pandas, Spark, a spreadsheet), and
 * DuckDB turns it into Parquet in one statement; the maintained Java Parquet writer
 * ({@code parquet-hadoop}) brings Hadoop's client libraries into the server's only jar.
 */
public final class CsvExport implements JournalReplay.Observer, AutoCloseable
{
    /** The events file's columns. */
    static final String EVENTS_HEADER =
        "sequence,time,type,campaign_id,request_id,gateway,cpm_micros,decision,reason,reserved_nanos,booked_nanos";
    /** The rollup files' columns. */
    static final String ROLLUP_HEADER = "campaign_id,period_start,bids,no_bids,wins,losses,booked_nanos,booked";

    private static final byte COMMA = ',';

    /** One campaign's figures in one period. */
    private static final class Period
    {
        long bids;
        long noBids;
        long wins;
        long losses;
        long bookedNanos;
    }

    /** A rollup key: campaign, then period start; ordered by unsigned id, then time. */
    private record Key(long campaignId, ZonedDateTime start)
    {
        static final Comparator<Key> ORDER = Comparator.<Key, Long>comparing(Key::campaignId, Long::compareUnsigned)
            .thenComparing(Key::start);
    }

    private final Path dir;
    private final RecordFilter filter;
    /** {@code events.csv}: each row is written out of {@link #line}, as bytes (through a {@code Writer}, encoding each row's strings was a third of an export). */
    private final OutputStream events;
    private final ExpandableArrayBuffer line = new ExpandableArrayBuffer(256);
    private String lastGatewayName;
    private byte[] lastGateway;
    /** Each campaign's spend after its last win (none: {@code Long.MIN_VALUE}, which no spend is). */
    private final Long2LongHashMap lastSpentNanos = new Long2LongHashMap(Long.MIN_VALUE);
    /** The rollups, unordered while the rows come (a row's lookup in a tree of records was a quarter of an export); sorted by {@link #close}. */
    private final Map<Key, Period> hourly = new HashMap<>();
    private final Map<Key, Period> daily = new HashMap<>();
    private long rows;

    /*
     * The last row's second and time zone, its time as text ({@link #time}) and its hour and day in that zone: rows
     * come in time order, many to a millisecond, and a zone's offset changes, and its hours begin,
     * on whole seconds only, so within a second and a zone the hour and the day cannot change.
     */
    private final InstantText time = new InstantText();
    private long lastSecond = Long.MIN_VALUE;
    private ZoneId lastZone;
    private ZonedDateTime lastHour;
    private ZonedDateTime lastDay;

    /** Opens {@code dir/events.csv} (the directory is created); the rollups are written by {@link #close}. */
    public CsvExport(final Path dir, final RecordFilter filter) throws IOException
    {
        this.dir = Files.createDirectories(dir);
        this.filter = filter;
        this.events = new BufferedOutputStream(Files.newOutputStream(dir.resolve("events.csv")), 1 << 16);
        try
        {
            events.write((EVENTS_HEADER + '\n').getBytes(StandardCharsets.US_ASCII));
        }
        catch (final IOException ex)
        {
            events.close();
            throw ex;
        }
    }

    @Override
    public void applied(final JournalRecord record, final Reason replayed, final PacingShard shard)
    {
        if (!record.type().fromGateway())
        {
            return;
        }
        final CampaignBook book = shard.campaign(record.campaignId());
        long bookedNanos = 0;
        if (record.type() == EventType.WIN_NOTICE && book != null)
        {
            final long spentNanos = book.spentNanos();
            final long before = lastSpentNanos.put(record.campaignId(), spentNanos);
            bookedNanos = spentNanos - (before == Long.MIN_VALUE ? 0 : before);
        }
        if (!filter.matches(record))
        {
            return;
        }
        try
        {
            row(record, book == null ? ZoneOffset.UTC : book.definition().timeZone(), bookedNanos);
        }
        catch (final IOException ex)
        {
            throw new UncheckedIOException(ex);
        }
    }

    private void row(final JournalRecord r, final ZoneId zone, final long bookedNanos) throws IOException
    {
        final boolean bid = r.type() == EventType.BID_REQUEST;
        final boolean bidded = bid && r.reason() == 0;
        final ExpandableArrayBuffer line = this.line;
        int at = line.putLongAscii(0, r.sequence());
        line.putByte(at++, COMMA);
        at += line.putStringWithoutLengthAscii(at, time.of(r.epochMillis()));
        line.putByte(at++, COMMA);
        at += line.putStringWithoutLengthAscii(at, r.type().name());
        line.putByte(at++, COMMA);
        at += putUnsigned(line, at, r.campaignId());
        line.putByte(at++, COMMA);
        at += putUnsigned(line, at, r.requestId());
        line.putByte(at++, COMMA);
        final byte[] gateway = quotedGateway(r.gatewayName());
        line.putBytes(at, gateway);
        at += gateway.length;
        line.putByte(at++, COMMA);
        if (r.type() != EventType.LOSS_NOTICE)
        {
            at += line.putLongAscii(at, r.cpmMicros());
        }
        line.putByte(at++, COMMA);
        if (bid)
        {
            at += line.putStringWithoutLengthAscii(at, bidded ? "BID" : "NO_BID");
        }
        line.putByte(at++, COMMA);
        if (bid)
        {
            at += line.putStringWithoutLengthAscii(at, Reason.get((short)r.reason()).name());
        }
        line.putByte(at++, COMMA);
        at += line.putLongAscii(at, bidded ? Money.impressionCostNanos(r.cpmMicros()) : 0);
        line.putByte(at++, COMMA);
        at += line.putLongAscii(at, bookedNanos);
        line.putByte(at++, (byte)'\n');
        events.write(line.byteArray(), 0, at);
        rows++;
        final long second = Math.floorDiv(r.epochMillis(), 1_000L);
        if (second != lastSecond || !zone.equals(lastZone))
        {
            final ZonedDateTime local = Instant.ofEpochMilli(r.epochMillis()).atZone(zone);
            lastHour = local.truncatedTo(ChronoUnit.HOURS);
            lastDay = local.truncatedTo(ChronoUnit.DAYS);
            lastSecond = second;
            lastZone = zone;
        }
        count(hourly.computeIfAbsent(new Key(r.campaignId(), lastHour), k -> new Period()), r, bookedNanos);
        count(daily.computeIfAbsent(new Key(r.campaignId(), lastDay), k -> new Period()), r, bookedNanos);
    }

    private static void count(final Period p, final JournalRecord r, final long bookedNanos)
    {
        switch (r.type())
        {
            case BID_REQUEST -> {
                if (r.reason() == 0)
                {
                    p.bids++;
                }
                else
                {
                    p.noBids++;
                }
            }
            case WIN_NOTICE -> {
                p.wins++;
                p.bookedNanos = Money.saturatingAdd(p.bookedNanos, bookedNanos);
            }
            default -> p.losses++;
        }
    }

    /** An id as {@link Long#toUnsignedString} writes it; returns its length. */
    private static int putUnsigned(final ExpandableArrayBuffer line, final int at, final long id)
    {
        return id >= 0 ? line.putNaturalLongAscii(at, id) : line.putStringWithoutLengthAscii(at, Long.toUnsignedString(id));
    }

    /** The gateway's name as the events file writes it, in UTF-8: made again only when the name changes (runs come from one gateway). */
    private byte[] quotedGateway(final String name)
    {
        if (!name.equals(lastGatewayName))
        {
            lastGatewayName = name;
            lastGateway = quoted(name).getBytes(StandardCharsets.UTF_8);
        }
        return lastGateway;
    }

    /** RFC 4180: in quotes, with quotes doubled. */
    private static String quoted(final String value)
    {
        return '"' + value.replace("\"", "\"\"") + '"';
    }

    /** Rows written to {@code events.csv}. */
    public long rows()
    {
        return rows;
    }

    /** Closes {@code events.csv} as far as it got, after a failed replay; no rollups are written. */
    public void abandon()
    {
        try
        {
            events.close();
        }
        catch (final IOException ex)
        {
            // the replay's own failure is what gets reported
        }
    }

    /** Finishes {@code events.csv} and writes the two rollups. */
    @Override
    public void close() throws IOException
    {
        events.close();
        writeRollup(dir.resolve("hourly.csv"), hourly);
        writeRollup(dir.resolve("daily.csv"), daily);
    }

    private static void writeRollup(final Path file, final Map<Key, Period> periods) throws IOException
    {
        try (BufferedWriter out = Files.newBufferedWriter(file, StandardCharsets.UTF_8))
        {
            out.write(ROLLUP_HEADER);
            out.write('\n');
            final List<Map.Entry<Key, Period>> sorted = new ArrayList<>(periods.entrySet());
            sorted.sort(Map.Entry.comparingByKey(Key.ORDER));
            for (final Map.Entry<Key, Period> e : sorted)
            {
                final Period p = e.getValue();
                out.write(Long.toUnsignedString(e.getKey().campaignId()) + ',' + e.getKey().start().toOffsetDateTime() + ',' +
                    p.bids + ',' + p.noBids + ',' + p.wins + ',' + p.losses + ',' + p.bookedNanos + ',' +
                    Amounts.decimal(p.bookedNanos) + '\n');
            }
        }
    }
}
