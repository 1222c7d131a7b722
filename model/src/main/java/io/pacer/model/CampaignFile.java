package io.pacer.model;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.JsonToken;
import org.agrona.collections.LongArrayList;
import org.agrona.collections.LongHashSet;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.SequenceInputStream;
import java.io.UncheckedIOException;
import java.util.Arrays;
import java.util.List;

/**
 * A campaigns file as last read, campaign by campaign: its bytes, where each campaign's text
 * starts, each campaign's id, and the definitions those texts gave. {@link #next} reads the file
 * again against it: the bytes the two files share at the start and at the end are compared, not
 * parsed, and a campaign text seen before is not parsed again. An edit of one campaign in a file
 * of a million compares 120 MB and parses one campaign.
 *
 * <p>Not thread-safe. A successful {@link #next} may take over this file's tables, so only the
 * file it returns may be used after it.
 */
public final class CampaignFile
{
    /** Prepended to the changed part of a file, which starts at a campaign, so that a parser reads it as the array's rest. */
    private static final byte[] OPEN_ARRAY = {'['};
    /** Bytes compared at a time when looking for the end the files share. */
    private static final int SUFFIX_BLOCK = 4096;

    private final byte[] bytes;
    private final int count;
    private final int[] starts;
    private final long[] ids;
    private final long[] hashes;
    /** Where the campaigns array's closing bracket is. */
    private final int arrayEnd;
    private final LongHashSet idSet;
    private final CampaignFileIndex texts;

    /**
     * A campaigns file read: the file as it is now, the definitions of the campaigns read from its
     * changed part (every campaign on a first read), in file order, and the ids of the previous
     * file's campaigns that are no longer in it.
     *
     * @param parsed how many campaigns were parsed (the others' texts were known)
     */
    public record Change(CampaignFile file, List<CampaignDefinition> read, long[] removed, int parsed)
    {
    }

    private CampaignFile(final byte[] bytes, final int count, final int[] starts, final long[] ids, final long[] hashes,
        final int arrayEnd, final LongHashSet idSet, final CampaignFileIndex texts)
    {
        this.bytes = bytes;
        this.count = count;
        this.starts = starts;
        this.ids = ids;
        this.hashes = hashes;
        this.arrayEnd = arrayEnd;
        this.idSet = idSet;
        this.texts = texts;
    }

    /** No file yet: the next read parses everything. */
    public static CampaignFile empty()
    {
        return new CampaignFile(new byte[0], 0, new int[0], new long[0], new long[0], 0, new LongHashSet(), new CampaignFileIndex());
    }

    /** Campaigns in the file. */
    public int count()
    {
        return count;
    }

    /** The definition of the file's {@code i}-th campaign. */
    public CampaignDefinition definition(final int i)
    {
        return texts.get(hashes[i]);
    }

    /**
     * Reads {@code utf8}, the campaigns file as it is now, against this one.
     *
     * @throws InvalidDefinitionException if the file is invalid, with the message a first read would give
     */
    public Change next(final byte[] utf8)
    {
        final int first = Arrays.mismatch(bytes, utf8);
        if (first < 0)
        {
            return new Change(this, List.of(), new long[0], 0);
        }
        if (count > 0 && first >= starts[0])
        {
            try
            {
                final Change change = readChangedPart(utf8, first);
                if (change != null)
                {
                    return change;
                }
            }
            catch (final InvalidDefinitionException | IOException ex)
            {
                // the whole read below names the error as a first read of the file would
            }
        }
        return readWhole(utf8);
    }

    /**
     * Reads from the campaign in which the files first differ until the parser reaches, in the
     * part both files end with, a campaign of this file (or its array's end): the rest is this
     * file's rest, read and checked before. Null if it reaches the array's end before that part.
     */
    private Change readChangedPart(final byte[] utf8, final int first) throws IOException
    {
        final int from = floor(first);
        final int shared = commonSuffix(bytes, utf8, Math.min(bytes.length, utf8.length) - first);
        final int unchangedFrom = utf8.length - shared;
        final int shift = utf8.length - bytes.length;
        final int base = starts[from] - OPEN_ARRAY.length;
        final CampaignElements read = new CampaignElements(16);
        int to = -1;
        try (JsonParser parser = CampaignDefinitionParser.scanner(texts).createParser(new SequenceInputStream(
            new ByteArrayInputStream(OPEN_ARRAY), new ByteArrayInputStream(utf8, starts[from], utf8.length - starts[from]))))
        {
            parser.nextToken();
            for (JsonToken token = parser.nextToken(); token != null; token = parser.nextToken())
            {
                final int at = base + (int)parser.currentTokenLocation().getByteOffset();
                if (at >= unchangedFrom)
                {
                    to = token == JsonToken.END_ARRAY ? (at - shift == arrayEnd ? count : -1) :
                        Arrays.binarySearch(starts, from, count, at - shift);
                    if (to >= 0 || token == JsonToken.END_ARRAY)
                    {
                        break;
                    }
                }
                if (token == JsonToken.END_ARRAY)
                {
                    break;
                }
                read.read(parser, utf8, base, at, from, texts);
                if (read.duplicate())
                {
                    return null;
                }
            }
        }
        return to < 0 ? null : splice(utf8, from, to, shift, read);
    }

    /** This file with its campaigns {@code [from, to)} replaced by those read; null if an id read is elsewhere in the file. */
    private Change splice(final byte[] utf8, final int from, final int to, final int shift, final CampaignElements read)
    {
        final LongHashSet replaced = new LongHashSet(Math.max(16, 2 * (to - from)));
        for (int i = from; i < to; i++)
        {
            replaced.add(ids[i]);
        }
        for (int i = 0; i < read.size(); i++)
        {
            if (idSet.contains(read.id(i)) && !replaced.contains(read.id(i)))
            {
                return null;
            }
        }
        final LongArrayList gone = new LongArrayList();
        for (int i = from; i < to; i++)
        {
            if (!read.has(ids[i]))
            {
                gone.addLong(ids[i]);
                idSet.remove(ids[i]);
            }
        }
        final int newCount = count - (to - from) + read.size();
        final boolean inPlace = newCount == count;
        final int[] newStarts = inPlace ? starts : Arrays.copyOf(starts, newCount);
        final long[] newIds = inPlace ? ids : Arrays.copyOf(ids, newCount);
        final long[] newHashes = inPlace ? hashes : Arrays.copyOf(hashes, newCount);
        final int after = from + read.size();
        if (!inPlace)
        {
            System.arraycopy(starts, to, newStarts, after, count - to);
            System.arraycopy(ids, to, newIds, after, count - to);
            System.arraycopy(hashes, to, newHashes, after, count - to);
        }
        for (int i = after; i < newCount; i++)
        {
            newStarts[i] += shift;
        }
        for (int i = 0; i < read.size(); i++)
        {
            newStarts[from + i] = read.start(i);
            newIds[from + i] = read.id(i);
            newHashes[from + i] = read.hash(i);
            idSet.add(read.id(i));
            texts.put(read.hash(i), read.definition(i));
        }
        // texts replaced stay in the index until they outnumber a quarter of the file
        final CampaignFileIndex index = texts.size() > newCount + Math.max(1024, newCount / 4) ?
            texts.retainOnly(newHashes, newCount) : texts;
        return new Change(new CampaignFile(utf8, newCount, newStarts, newIds, newHashes, arrayEnd + shift, idSet, index),
            read.definitions(), gone.toLongArray(), read.parsed());
    }

    /** The whole file read, its campaigns' texts looked up in this file's. */
    private Change readWhole(final byte[] utf8)
    {
        try (JsonParser parser = CampaignDefinitionParser.scanner(texts).createParser(utf8))
        {
            if (parser.nextToken() != JsonToken.START_OBJECT)
            {
                throw new InvalidDefinitionException("document", parser.currentToken() == null ? "is empty" :
                    "must be an object { \"campaigns\": [ ... ] }");
            }
            CampaignElements read = null;
            int end = -1;
            while (parser.nextToken() == JsonToken.FIELD_NAME)
            {
                final String name = parser.currentName();
                if (!"campaigns".equals(name))
                {
                    throw new InvalidDefinitionException(name, "unknown field (expected only \"campaigns\")");
                }
                if (read != null)
                {
                    throw new InvalidDefinitionException("document", "not valid json: Duplicate field 'campaigns'");
                }
                read = new CampaignElements(Math.max(16, count));
                end = readArray(parser, utf8, read);
            }
            if (parser.nextToken() != null)
            {
                throw new InvalidDefinitionException("document", "not valid json: trailing content after the object");
            }
            if (read == null)
            {
                throw new InvalidDefinitionException("campaigns", "is required");
            }
            final LongHashSet newIds = read.ids();
            final long[] gone = Arrays.stream(ids, 0, count).filter(id -> !newIds.contains(id)).toArray();
            return new Change(new CampaignFile(utf8, read.size(), read.starts(), read.idArray(), read.hashes(), end, newIds,
                read.index()), read.definitions(), gone, read.parsed());
        }
        catch (final JsonProcessingException ex)
        {
            throw new InvalidDefinitionException("document", "not valid json: " + ex.getOriginalMessage());
        }
        catch (final IOException ex)
        {
            throw new UncheckedIOException(ex);
        }
    }

    /** The array after the {@code campaigns} field name, one campaign at a time; returns where it ends. */
    private int readArray(final JsonParser parser, final byte[] utf8, final CampaignElements read) throws IOException
    {
        if (parser.nextToken() != JsonToken.START_ARRAY)
        {
            throw new InvalidDefinitionException("campaigns", "must be an array, was " +
                CampaignDefinitionParser.typeName(CampaignDefinitionParser.ELEMENT.readTree(parser)));
        }
        while (parser.nextToken() != JsonToken.END_ARRAY)
        {
            read.read(parser, utf8, 0, (int)parser.currentTokenLocation().getByteOffset(), 0, texts);
            if (read.duplicate())
            {
                throw new InvalidDefinitionException(CampaignElements.prefix(read.size() - 1) + "id",
                    "duplicate id " + Long.toUnsignedString(read.id(read.size() - 1)));
            }
        }
        return (int)parser.currentTokenLocation().getByteOffset();
    }

    /** The last campaign starting at or before {@code offset} (there is one: {@code offset >= starts[0]}). */
    private int floor(final int offset)
    {
        final int i = Arrays.binarySearch(starts, 0, count, offset);
        return i >= 0 ? i : -i - 2;
    }

    /** How many bytes, at most {@code max}, {@code a} and {@code b} end with in common. */
    static int commonSuffix(final byte[] a, final byte[] b, final int max)
    {
        int n = 0;
        while (n < max)
        {
            final int len = Math.min(SUFFIX_BLOCK, max - n);
            final int aFrom = a.length - n - len;
            final int bFrom = b.length - n - len;
            if (Arrays.mismatch(a, aFrom, aFrom + len, b, bFrom, bFrom + len) < 0)
            {
                n += len;
                continue;
            }
            int i = len - 1;
            while (a[aFrom + i] == b[bFrom + i])
            {
                i--;
            }
            return n + len - 1 - i;
        }
        return max;
    }
}
