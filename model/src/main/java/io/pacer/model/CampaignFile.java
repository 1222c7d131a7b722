package io.pacer.model;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.JsonToken;
import org.agrona.collections.Long2LongHashMap;
import org.agrona.collections.LongHashSet;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.SequenceInputStream;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * A campaigns file as last read, campaign by campaign: its bytes, and where each campaign's text
 * starts, its id and the hash of its text (not its definition: a million definitions would hold
 * 170 MB). {@link #next} reads the file again against it: the bytes the two files share at the
 * start and at the end are compared, not parsed; the campaigns in between are parsed, and those
 * whose text is what it was are left out of the change. An edit of one campaign in a file of a
 * million compares 120 MB and parses one or two campaigns.
 *
 * <p>Not thread-safe. A successful {@link #next} may take over this file's tables, so only the
 * file it returns may be used after it.
 */
public final class CampaignFile
{
    /** Prepended to the changed part of a file, which starts at a campaign, so that a parser reads it as the array's rest. */
    private static final byte[] OPEN_ARRAY = {'['};
    /** About the bytes a campaign takes in a file, to size a first read's tables (they grow past it). */
    private static final int BYTES_PER_CAMPAIGN = 128;
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

    /**
     * A campaigns file read: the file as it is now, the campaigns new or changed since the
     * previous read (every campaign on a first read), in file order, and the campaigns of the
     * previous file no longer in it, as they were.
     *
     * @param parsed how many campaigns were parsed (the others were compared as bytes)
     */
    public record Change(CampaignFile file, List<CampaignDefinition> changed, List<CampaignDefinition> removed, int parsed)
    {
    }

    private CampaignFile(final byte[] bytes, final int count, final int[] starts, final long[] ids, final long[] hashes,
        final int arrayEnd, final LongHashSet idSet)
    {
        this.bytes = bytes;
        this.count = count;
        this.starts = starts;
        this.ids = ids;
        this.hashes = hashes;
        this.arrayEnd = arrayEnd;
        this.idSet = idSet;
    }

    /** No file yet: the next read parses everything. */
    public static CampaignFile empty()
    {
        return new CampaignFile(new byte[0], 0, new int[0], new long[0], new long[0], 0, new LongHashSet());
    }

    /** Campaigns in the file. */
    public int count()
    {
        return count;
    }

    /** The id of the file's {@code i}-th campaign. */
    public long id(final int i)
    {
        return ids[i];
    }

    /**
     * Reads {@code utf8}, the campaigns file as it is now, against this one.
     *
     * @throws InvalidDefinitionException if the file is invalid, with the message a first read would give
     */
    public Change next(final byte[] utf8)
    {
        final int first = Arrays.mismatch(bytes, utf8);
        if (first < 0 && bytes.length > 0)
        {
            return new Change(this, List.of(), List.of(), 0);
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
     * file's rest, read and checked before. Null, for a whole read to decide, if it reaches the
     * array's end before that part, or if a campaign read has an id the file already has.
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
        try (JsonParser parser = CampaignDefinitionParser.FILE.createParser(new SequenceInputStream(
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
                read.read(parser, utf8, base, at, from);
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
        final List<CampaignDefinition> changed = changed(from, to, read);
        final List<CampaignDefinition> removed = removed(from, to, read);
        for (final CampaignDefinition gone : removed)
        {
            idSet.remove(gone.id());
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
        }
        return new Change(new CampaignFile(utf8, newCount, newStarts, newIds, newHashes, arrayEnd + shift, idSet),
            changed, removed, read.size());
    }

    /**
     * The campaigns read that are new, or whose definition differs from that of the campaign with
     * their id in {@code [from, to)}: the same text means the same definition; another text (a
     * comment, fields reordered, the file reformatted) is parsed again from the previous bytes to
     * compare definitions, so that a campaign whose meaning did not change is not republished.
     */
    private List<CampaignDefinition> changed(final int from, final int to, final CampaignElements read)
    {
        final Long2LongHashMap indexById = new Long2LongHashMap(Math.max(16, 2 * (to - from)), 0.65f, -1);
        for (int i = from; i < to; i++)
        {
            indexById.put(ids[i], i);
        }
        final List<CampaignDefinition> changed = new ArrayList<>();
        for (int i = 0; i < read.size(); i++)
        {
            final int was = (int)indexById.get(read.id(i));
            if (was < 0 || (hashes[was] != read.hash(i) && !definition(was).equals(read.definition(i))))
            {
                changed.add(read.definition(i));
            }
        }
        return changed;
    }

    /** The campaigns in {@code [from, to)} whose id none read has, as they were. */
    private List<CampaignDefinition> removed(final int from, final int to, final CampaignElements read)
    {
        final List<CampaignDefinition> removed = new ArrayList<>();
        for (int i = from; i < to; i++)
        {
            if (!read.has(ids[i]))
            {
                removed.add(definition(i));
            }
        }
        return removed;
    }

    /** The definition of this file's campaign {@code i}, parsed again from its text (it was valid). */
    private CampaignDefinition definition(final int i)
    {
        try
        {
            return CampaignDefinitionParser.parse(
                CampaignDefinitionParser.ELEMENT.readTree(bytes, starts[i], bytes.length - starts[i]), CampaignElements.prefix(i));
        }
        catch (final IOException ex)
        {
            throw new IllegalStateException("campaigns[" + i + "] was read before", ex);
        }
    }

    /** The whole file read, and compared with this one campaign by campaign. */
    private Change readWhole(final byte[] utf8)
    {
        try (JsonParser parser = CampaignDefinitionParser.FILE.createParser(utf8))
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
                read = new CampaignElements(Math.max(16, Math.max(count, utf8.length / BYTES_PER_CAMPAIGN)));
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
            return new Change(new CampaignFile(utf8, read.size(), read.starts(), read.idArray(), read.hashes(), end, read.idSet()),
                changed(0, count, read), removed(0, count, read), read.size());
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
            read.read(parser, utf8, 0, (int)parser.currentTokenLocation().getByteOffset(), 0);
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
