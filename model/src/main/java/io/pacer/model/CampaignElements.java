package io.pacer.model;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.databind.JsonNode;
import org.agrona.collections.IntArrayList;
import org.agrona.collections.LongArrayList;
import org.agrona.collections.LongHashSet;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;

/**
 * Campaigns read in a row from a campaigns file's array: each one's definition, where its text
 * starts, its id and the hash of its text. A text the known index holds is skipped over and takes
 * the definition it gave before; any other is read as a small tree and parsed.
 */
final class CampaignElements
{
    private final List<CampaignDefinition> definitions;
    private final IntArrayList starts;
    private final LongArrayList ids;
    private final LongArrayList hashes;
    private final LongHashSet idSet;
    private final CampaignFileIndex index;
    private int parsed;
    private boolean duplicate;

    CampaignElements(final int expected)
    {
        definitions = new ArrayList<>(expected);
        starts = new IntArrayList(expected, Integer.MIN_VALUE);
        ids = new LongArrayList(expected, Long.MIN_VALUE);
        hashes = new LongArrayList(expected, Long.MIN_VALUE);
        idSet = new LongHashSet(2 * expected);
        index = new CampaignFileIndex(expected);
    }

    /** What errors in element {@code i} of the campaigns array put before a field name. */
    static String prefix(final int i)
    {
        return "campaigns[" + i + "].";
    }

    /**
     * Reads the campaign at the parser's current token.
     *
     * @param base       the offset in {@code utf8} of the parser's first byte
     * @param start      where, in {@code utf8}, the campaign's text starts
     * @param firstIndex the array index of the first campaign read here, for error messages
     * @param known      texts read before
     */
    void read(final JsonParser parser, final byte[] utf8, final int base, final int start, final int firstIndex,
        final CampaignFileIndex known) throws IOException
    {
        // with nothing known, the tree is read in the same pass; otherwise the text is skipped
        // over and read only if it is new
        final boolean skip = known.size() > 0 && parser.currentToken() == JsonToken.START_OBJECT;
        final JsonNode tree = skip ? null : CampaignDefinitionParser.ELEMENT.readTree(parser);
        if (skip)
        {
            parser.skipChildren();
        }
        final int end = base + (int)parser.currentLocation().getByteOffset();
        final long hash = CampaignFileIndex.hash(utf8, start, end);
        CampaignDefinition definition = skip ? known.get(hash) : null;
        if (definition == null)
        {
            // not an object: parse says so, naming the element
            definition = CampaignDefinitionParser.parse(
                skip ? CampaignDefinitionParser.ELEMENT.readTree(utf8, start, end - start) : tree, prefix(firstIndex + size()));
            parsed++;
        }
        index.put(hash, definition);
        definitions.add(definition);
        starts.addInt(start);
        ids.addLong(definition.id());
        hashes.addLong(hash);
        duplicate = !idSet.add(definition.id());
    }

    /** Whether the last campaign read has the id of one read before it. */
    boolean duplicate()
    {
        return duplicate;
    }

    /** Whether a campaign read has this id. */
    boolean has(final long id)
    {
        return idSet.contains(id);
    }

    int size()
    {
        return definitions.size();
    }

    int parsed()
    {
        return parsed;
    }

    CampaignDefinition definition(final int i)
    {
        return definitions.get(i);
    }

    int start(final int i)
    {
        return starts.getInt(i);
    }

    long id(final int i)
    {
        return ids.getLong(i);
    }

    long hash(final int i)
    {
        return hashes.getLong(i);
    }

    List<CampaignDefinition> definitions()
    {
        return definitions;
    }

    int[] starts()
    {
        return starts.toIntArray();
    }

    long[] idArray()
    {
        return ids.toLongArray();
    }

    long[] hashes()
    {
        return hashes.toLongArray();
    }

    /** The ids read, as a set: handed over, not copied. */
    LongHashSet ids()
    {
        return idSet;
    }

    /** The texts read and their definitions: handed over, not copied. */
    CampaignFileIndex index()
    {
        return index;
    }
}
