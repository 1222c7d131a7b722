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
 * starts, its id and a 64-bit hash of its text (two campaigns with the same id and hash have the
 * same definition).
 */
final class CampaignElements
{
    private final List<CampaignDefinition> definitions;
    private final IntArrayList starts;
    private final LongArrayList ids;
    private final LongArrayList hashes;
    private final LongHashSet idSet;
    private boolean duplicate;

    CampaignElements(final int expected)
    {
        definitions = new ArrayList<>(expected);
        starts = new IntArrayList(expected, Integer.MIN_VALUE);
        ids = new LongArrayList(expected, Long.MIN_VALUE);
        hashes = new LongArrayList(expected, Long.MIN_VALUE);
        idSet = new LongHashSet(2 * expected);
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
     */
    void read(final JsonParser parser, final byte[] utf8, final int base, final int start, final int firstIndex)
        throws IOException
    {
        final CampaignDefinition fast = parser.currentToken() == JsonToken.START_OBJECT ? CampaignStreamReader.read(parser) : null;
        final JsonNode tree = parser.currentToken() == JsonToken.END_OBJECT ? null : CampaignDefinitionParser.ELEMENT.readTree(parser);
        final int end = base + endOffset(parser);
        // what the stream reader gave up on is read as a tree, from its text, to say what is wrong with it
        final CampaignDefinition definition = fast != null ? fast : CampaignDefinitionParser.parse(
            tree != null ? tree : CampaignDefinitionParser.ELEMENT.readTree(utf8, start, end - start), prefix(firstIndex + size()));
        definitions.add(definition);
        starts.addInt(start);
        ids.addLong(definition.id());
        hashes.addLong(TextHash.of(utf8, start, end));
        duplicate = !idSet.add(definition.id());
    }

    /** Where the value whose last token is the parser's current one ends (a closing bracket's end is found without a location of its own). */
    private static int endOffset(final JsonParser parser)
    {
        final JsonToken last = parser.currentToken();
        return last != null && last.isStructEnd() ? (int)parser.currentTokenLocation().getByteOffset() + 1 :
            (int)parser.currentLocation().getByteOffset();
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
    LongHashSet idSet()
    {
        return idSet;
    }
}
