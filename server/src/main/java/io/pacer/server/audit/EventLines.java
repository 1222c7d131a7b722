package io.pacer.server.audit;

import com.fasterxml.jackson.core.JsonGenerator;
import io.pacer.pipeline.EventType;
import io.pacer.pipeline.journal.JournalRecord;
import io.pacer.wire.Reason;

import java.io.FilterOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintStream;
import java.io.UncheckedIOException;

/**
 * {@code pacer replay --events}: each matching event and its re-made decision as a line of JSON,
 * written by one generator as UTF-8 into its buffer, which goes out some 8 KB at a time and at
 * {@link #flush}. A tree built and printed per event, each line flushed on its own by an
 * auto-flushing {@code System.out}, took 33.6 s for 10M events written to /dev/null, 14 s of it
 * in the kernel (7.2 s and 0.3 s this way). The same bytes: UTF-8 throughout, characters outside
 * the Basic Multilingual Plane included ({@link JsonReports}).
 *
 * <p>Call {@link #flush} when the replay ends, however it ends: what is printed after the events (a
 * point in time, an explanation, a what-if) must follow them, and a replay that fails must still
 * show the events up to its failure.
 */
public final class EventLines
{
    private final JsonGenerator json;
    private final InstantText time = new InstantText();

    /**
     * @param out where the lines go; left open. A {@code PrintStream}, which keeps a write's failure
     *            to itself, is asked after each buffer it is given: one that has failed (a closed
     *            pipe: {@code pacer replay --events | head}) stops the replay there, instead of at the
     *            journal's end.
     */
    public EventLines(final OutputStream out)
    {
        try
        {
            json = JsonReports.to(out instanceof PrintStream stream ? new Checked(stream) : out);
        }
        catch (final IOException ex)
        {
            throw new UncheckedIOException(ex);
        }
        // one value a line: the newline is written after each, not Jackson's space before the next
        json.setRootValueSeparator(null);
    }

    /** Writes {@code r}'s line; {@code replayed} is its re-made decision if it is a bid. */
    void write(final JournalRecord r, final Reason replayed)
    {
        try
        {
            json.writeStartObject();
            json.writeNumberField("sequence", r.sequence());
            json.writeStringField("time", time.of(r.epochMillis()));
            json.writeStringField("type", r.type().name());
            json.writeStringField("campaignId", Long.toUnsignedString(r.campaignId()));
            if (r.type().fromGateway())
            {
                json.writeStringField("requestId", Long.toUnsignedString(r.requestId()));
                json.writeStringField("gateway", r.gatewayName());
            }
            if (r.type() == EventType.BID_REQUEST)
            {
                json.writeNumberField("bidCpmMicros", r.cpmMicros());
                json.writeStringField("decision", r.reason() == 0 ? "BID" : "NO_BID");
                json.writeStringField("reason", Reason.get((short)r.reason()).name());
                json.writeStringField("replayedReason", replayed.name());
            }
            else if (r.type() == EventType.WIN_NOTICE)
            {
                json.writeNumberField("priceCpmMicros", r.cpmMicros());
            }
            else if (r.type() == EventType.CAMPAIGN_UPDATE)
            {
                json.writeStringField("definition", r.definitionJson());
            }
            json.writeEndObject();
            json.writeRaw('\n');
        }
        catch (final IOException ex)
        {
            throw new UncheckedIOException(ex);
        }
    }

    /** Sends on what the buffer holds, and flushes the stream. */
    public void flush()
    {
        try
        {
            json.flush();
        }
        catch (final IOException ex)
        {
            throw new UncheckedIOException(ex);
        }
    }

    /** A {@code PrintStream} whose failure to write is thrown, not kept. */
    private static final class Checked extends FilterOutputStream
    {
        private final PrintStream stream;

        Checked(final PrintStream stream)
        {
            super(stream);
            this.stream = stream;
        }

        @Override
        public void write(final byte[] bytes, final int offset, final int length) throws IOException
        {
            stream.write(bytes, offset, length);
            if (stream.checkError())
            {
                throw new IOException("the events could not be written (standard output closed or full)");
            }
        }
    }
}
