package io.pacer.model;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.json.JsonMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import org.agrona.MutableDirectBuffer;
import org.agrona.concurrent.UnsafeBuffer;

import java.io.UncheckedIOException;
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.util.List;

/**
 * Renders campaign definitions and states as JSON for the admin API and the audit tools.
 * Ids are unsigned 64-bit; money appears in micros (rounded down) and, where it can hold a
 * fraction of a micro, exactly in nanos too.
 */
public final class CampaignJson
{
    private static final ObjectMapper MAPPER = JsonMapper.builder().build();

    private CampaignJson()
    {
    }

    /**
     * The definition alone, in the shape docs/operations.md defines: the same text Jackson writes
     * for {@link #definitionNode}, written directly by {@link #writeDefinition}.
     */
    public static String definition(final CampaignDefinition d)
    {
        final UnsafeBuffer json = new UnsafeBuffer(new byte[maxDefinitionLength(d)]);
        return new String(json.byteArray(), 0, writeDefinition(json, 0, d), StandardCharsets.US_ASCII);
    }

    /** The most bytes {@link #writeDefinition} writes for {@code d}. */
    private static int maxDefinitionLength(final CampaignDefinition d)
    {
        return 384 + d.timeZone().getId().length();
    }

    /**
     * Writes {@link #definition} as ASCII at {@code index}, with no String or array on the way (a
     * large campaigns file or a bulk PUT renders a million of them); returns the length. A zone id
     * is ASCII and needs no escaping ({@link java.time.ZoneId}'s rules).
     */
    private static int writeDefinition(final MutableDirectBuffer json, final int index, final CampaignDefinition d)
    {
        int i = index;
        i += json.putStringWithoutLengthAscii(i, "{\"id\":");
        i += d.id() >= 0 ? json.putLongAscii(i, d.id()) : json.putStringWithoutLengthAscii(i, Long.toUnsignedString(d.id()));
        i += json.putStringWithoutLengthAscii(i, ",\"budgetMicros\":");
        i += json.putLongAscii(i, d.budgetMicros());
        i += json.putStringWithoutLengthAscii(i, ",\"dailyBudgetMicros\":");
        i += json.putLongAscii(i, d.dailyBudgetMicros());
        i += json.putStringWithoutLengthAscii(i, ",\"start\":\"");
        i += instant(json, i, d.start());
        i += json.putStringWithoutLengthAscii(i, "\",\"end\":\"");
        i += instant(json, i, d.end());
        i += json.putStringWithoutLengthAscii(i, "\",\"timeZone\":\"");
        i += json.putStringWithoutLengthAscii(i, d.timeZone().getId());
        i += json.putStringWithoutLengthAscii(i, "\",\"maxBidCpmMicros\":");
        i += json.putLongAscii(i, d.maxBidCpmMicros());
        i += json.putStringWithoutLengthAscii(i, ",\"pacing\":\"");
        i += json.putStringWithoutLengthAscii(i, d.pacing().name());
        i += json.putStringWithoutLengthAscii(i, "\",\"status\":\"");
        i += json.putStringWithoutLengthAscii(i, d.status().name());
        i += json.putStringWithoutLengthAscii(i, "\"}");
        return i - index;
    }

    /** {@link Instant#toString()}, without its formatter for whole seconds in years 0 to 9999; returns the length. */
    private static int instant(final MutableDirectBuffer json, final int index, final Instant instant)
    {
        final LocalDateTime t = LocalDateTime.ofEpochSecond(instant.getEpochSecond(), 0, ZoneOffset.UTC);
        if (instant.getNano() != 0 || t.getYear() < 0 || t.getYear() > 9999)
        {
            return json.putStringWithoutLengthAscii(index, instant.toString());
        }
        json.putNaturalPaddedIntAscii(index, 4, t.getYear());
        json.putByte(index + 4, (byte)'-');
        json.putNaturalPaddedIntAscii(index + 5, 2, t.getMonthValue());
        json.putByte(index + 7, (byte)'-');
        json.putNaturalPaddedIntAscii(index + 8, 2, t.getDayOfMonth());
        json.putByte(index + 10, (byte)'T');
        json.putNaturalPaddedIntAscii(index + 11, 2, t.getHour());
        json.putByte(index + 13, (byte)':');
        json.putNaturalPaddedIntAscii(index + 14, 2, t.getMinute());
        json.putByte(index + 16, (byte)':');
        json.putNaturalPaddedIntAscii(index + 17, 2, t.getSecond());
        json.putByte(index + 19, (byte)'Z');
        return 20;
    }

    /** The definition plus the money and counters of its state. */
    public static String state(final CampaignSnapshot s)
    {
        return write(stateNode(s));
    }

    /**
     * One page of {@code GET /campaigns}: {@code {"campaigns": [...], "next": ID or null}}, where
     * {@code next} is the {@code after} of the following page.
     *
     * @param hasNext whether more campaigns follow the last one of {@code page}
     */
    public static String page(final List<CampaignSnapshot> page, final boolean hasNext)
    {
        final ObjectNode root = MAPPER.createObjectNode();
        final ArrayNode array = root.putArray("campaigns");
        page.forEach(s -> array.add(stateNode(s)));
        if (hasNext && !page.isEmpty())
        {
            root.put("next", new BigInteger(Long.toUnsignedString(page.get(page.size() - 1).definition().id())));
        }
        else
        {
            root.putNull("next");
        }
        return write(root);
    }

    /** A bulk update refused, every rejected item named: nothing of it was applied. */
    public static String batchErrors(final CampaignBatch batch)
    {
        final int total = batch.definitions().size() + batch.errors().size();
        final ObjectNode root = MAPPER.createObjectNode()
            .put("error", batch.errors().size() + " of " + total + " campaign(s) rejected; nothing applied");
        final ArrayNode errors = root.putArray("errors");
        for (final CampaignBatch.ItemError e : batch.errors())
        {
            final ObjectNode item = errors.addObject().put("item", e.item());
            if (e.id() == null)
            {
                item.putNull("id");
            }
            else
            {
                item.put("id", e.id());
            }
            item.put("field", e.field()).put("error", e.problem());
        }
        return write(root);
    }

    /** {@code {"error": message}}. */
    public static String error(final String message)
    {
        return write(MAPPER.createObjectNode().put("error", message));
    }

    /** The state as a tree, for callers that add fields of their own. */
    public static ObjectNode stateNode(final CampaignSnapshot s)
    {
        final ObjectNode node = definitionNode(s.definition());
        node.put("spentMicros", Money.nanosToMicrosFloor(s.spentNanos()));
        node.put("spentNanos", s.spentNanos());
        node.put("reservedMicros", Money.nanosToMicrosFloor(s.reservedNanos()));
        node.put("reservedNanos", s.reservedNanos());
        node.put("todaySpentMicros", Money.nanosToMicrosFloor(s.todaySpentNanos()));
        node.put("todaySpentNanos", s.todaySpentNanos());
        if (s.plannedNanos() >= 0)
        {
            node.put("plannedMicros", Money.nanosToMicrosFloor(s.plannedNanos()));
        }
        node.put("bids", s.bids());
        node.put("noBids", s.noBids());
        node.put("wins", s.wins());
        node.put("losses", s.losses());
        node.put("lateWins", s.lateWins());
        node.put("expiredReservations", s.expiredReservations());
        node.put("openReservations", s.openReservations());
        node.put("asOf", Instant.ofEpochMilli(s.asOfMillis()).toString());
        return node;
    }

    static ObjectNode definitionNode(final CampaignDefinition d)
    {
        final ObjectNode node = MAPPER.createObjectNode();
        node.put("id", new BigInteger(Long.toUnsignedString(d.id())));
        node.put("budgetMicros", d.budgetMicros());
        node.put("dailyBudgetMicros", d.dailyBudgetMicros());
        node.put("start", d.start().toString());
        node.put("end", d.end().toString());
        node.put("timeZone", d.timeZone().getId());
        node.put("maxBidCpmMicros", d.maxBidCpmMicros());
        node.put("pacing", d.pacing().name());
        node.put("status", d.status().name());
        return node;
    }

    static String write(final Object node)
    {
        try
        {
            return MAPPER.writeValueAsString(node);
        }
        catch (final JsonProcessingException ex)
        {
            throw new UncheckedIOException(ex);
        }
    }
}
