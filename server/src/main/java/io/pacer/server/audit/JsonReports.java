package io.pacer.server.audit;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.StreamWriteFeature;
import com.fasterxml.jackson.core.json.JsonWriteFeature;

import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;

/**
 * How {@code pacer replay} writes JSON: as UTF-8 whatever the locale (RFC 8259), where its text goes
 * out in the platform's encoding. A large report is streamed by a generator as it is walked: built
 * as a tree first, a million campaigns' audit held every campaign's nodes at once, and took 15 s
 * more than its text and 700 MB more memory.
 */
public final class JsonReports
{
    /**
     * Leaves the stream open, and a report cut short by an error unclosed (closing the generator
     * would otherwise write the brackets an interrupted report lacks, and it would read as whole).
     */
    private static final JsonFactory FACTORY = JsonFactory.builder()
        .disable(StreamWriteFeature.AUTO_CLOSE_TARGET)
        .disable(StreamWriteFeature.AUTO_CLOSE_CONTENT)
        // a character past the Basic Multilingual Plane (a gateway named with an emoji) as its UTF-8
        // bytes, as a tree's text encoded is, not as an escaped surrogate pair
        .enable(JsonWriteFeature.COMBINE_UNICODE_SURROGATES_IN_UTF8)
        .build();

    private JsonReports()
    {
    }

    /** A generator writing to {@code out}; closing it flushes what it holds to {@code out} and leaves {@code out} open. */
    static JsonGenerator to(final OutputStream out) throws IOException
    {
        return FACTORY.createGenerator(out);
    }

    /** Writes one JSON value, as it goes. */
    @FunctionalInterface
    interface Report
    {
        void writeTo(JsonGenerator json) throws IOException;
    }

    /**
     * Writes {@code report}'s value to {@code out} through a generator, then a newline; the
     * generator's close flushes what it holds to {@code out} and leaves {@code out} open.
     */
    static void print(final PrintStream out, final Report report)
    {
        try (JsonGenerator json = to(out))
        {
            report.writeTo(json);
        }
        catch (final IOException ex)
        {
            throw new UncheckedIOException(ex);
        }
        out.write('\n');
    }

    /** Writes one JSON value, already made, and a newline, to {@code out}. */
    public static void println(final PrintStream out, final String json)
    {
        final byte[] bytes = json.getBytes(StandardCharsets.UTF_8);
        out.write(bytes, 0, bytes.length);
        out.write('\n');
    }
}
