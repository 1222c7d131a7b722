package io.pacer.model;

import com.fasterxml.jackson.databind.JsonNode;
import org.agrona.collections.LongHashSet;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/**
 * A bulk update's campaigns ({@code PUT /campaigns}, docs/operations.md), parsed whole before any
 * is applied: a JSON array of definitions, or NDJSON (one definition per line; blank lines are
 * skipped). Every invalid item is reported, naming its position, its id when it has one, and the
 * field; a batch with any error is applied not at all.
 *
 * @param definitions the valid definitions, in the order given
 * @param errors      one per rejected item, in the order given; empty when the batch may be applied
 */
public record CampaignBatch(List<CampaignDefinition> definitions, List<ItemError> errors)
{
    /**
     * One rejected item.
     *
     * @param item    its position in the batch, from 0 (for NDJSON, counting non-blank lines)
     * @param id      its id as written, or null when it has none that could be read
     * @param field   the offending field, e.g. {@code budgetMicros}
     * @param problem what is wrong with it
     */
    public record ItemError(int item, String id, String field, String problem)
    {
    }

    /**
     * Parses a bulk update's body.
     *
     * @throws InvalidDefinitionException when the body as a whole is unusable (not a JSON array, or empty)
     */
    public static CampaignBatch parse(final String body)
    {
        final String trimmed = body.strip();
        final List<JsonNode> items = new ArrayList<>();
        final List<ItemError> errors = new ArrayList<>();
        if (trimmed.startsWith("["))
        {
            final JsonNode array = CampaignDefinitionParser.readStrict(trimmed);
            array.forEach(items::add);
        }
        else
        {
            for (final String line : trimmed.split("\n"))
            {
                if (line.isBlank())
                {
                    continue;
                }
                try
                {
                    items.add(CampaignDefinitionParser.readStrict(line));
                }
                catch (final InvalidDefinitionException ex)
                {
                    errors.add(new ItemError(items.size(), null, ex.field(), ex.problem()));
                    items.add(null);
                }
            }
        }
        if (items.isEmpty())
        {
            throw new InvalidDefinitionException("document",
                "must be a JSON array of campaign definitions, or one definition per line (NDJSON), with at least one");
        }
        return validate(items, errors);
    }

    private static CampaignBatch validate(final List<JsonNode> items, final List<ItemError> errors)
    {
        final List<CampaignDefinition> definitions = new ArrayList<>(items.size());
        final LongHashSet ids = new LongHashSet();
        for (int i = 0; i < items.size(); i++)
        {
            final JsonNode item = items.get(i);
            if (item == null)
            {
                continue;
            }
            try
            {
                final CampaignDefinition definition = CampaignDefinitionParser.parse(item, "");
                if (!ids.add(definition.id()))
                {
                    throw new InvalidDefinitionException("id",
                        "duplicate id " + Long.toUnsignedString(definition.id()) + " in this batch");
                }
                definitions.add(definition);
            }
            catch (final InvalidDefinitionException ex)
            {
                final JsonNode id = item.isObject() ? item.get("id") : null;
                errors.add(new ItemError(i, id == null || id.isContainerNode() ? null : id.asText(), ex.field(), ex.problem()));
            }
        }
        errors.sort(Comparator.comparingInt(ItemError::item));
        return new CampaignBatch(List.copyOf(definitions), List.copyOf(errors));
    }
}
