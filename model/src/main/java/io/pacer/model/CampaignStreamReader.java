package io.pacer.model;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import io.pacer.units.CpmMicros;
import io.pacer.units.CurrencyMicros;
import io.pacer.units.Units;

import java.io.IOException;
import java.time.DateTimeException;
import java.time.Instant;
import java.time.ZoneId;
import java.util.Set;

/**
 * Reads a well-formed campaign straight from the parser's tokens, with no tree: a million
 * campaigns loaded as trees spent most of their parsing building them. Anything it does not
 * expect (an unknown field, a value of another type, a number beyond a long, a definition its
 * constructor refuses) makes it give up and return null, on the object's {@code END_OBJECT}; the caller
 * then reads the campaign's text as a tree with {@link CampaignDefinitionParser#parse}, which
 * says exactly what is wrong. For every campaign it accepts, it gives what that path gives.
 */
final class CampaignStreamReader
{
    /** The fields a JSON null may stand for: absent, given their defaults. */
    private static final Set<String> OPTIONAL = Set.of("dailyBudgetMicros", "timeZone", "maxBidCpmMicros", "pacing", "status");

    /** Flight bounds: campaigns in a row mostly share them. */
    private static final InstantMemo STARTS = new InstantMemo();
    private static final InstantMemo ENDS = new InstantMemo();

    private CampaignStreamReader()
    {
    }

    private static Instant shared(final InstantMemo memo, final Instant instant)
    {
        return instant == null ? null : memo.share(instant);
    }

    /**
     * The campaign whose {@code START_OBJECT} is the parser's current token, or null; either way
     * the parser is left on the object's {@code END_OBJECT}.
     */
    static CampaignDefinition read(final JsonParser parser) throws IOException
    {
        boolean hasId = false;
        boolean hasBudget = false;
        long id = 0;
        long budget = 0;
        long daily = 0;
        long maxBid = 0;
        Instant start = null;
        Instant end = null;
        ZoneId zone = null;
        PacingMode pacing = PacingMode.EVEN;
        CampaignStatus status = CampaignStatus.ACTIVE;
        for (JsonToken token = parser.nextToken(); token != JsonToken.END_OBJECT; token = parser.nextToken())
        {
            final String name = parser.currentName();
            final JsonToken value = parser.nextToken();
            boolean ok = false;
            if (value == JsonToken.VALUE_NULL)
            {
                // absent, as the tree path reads it: fine where optional
                ok = OPTIONAL.contains(name);
            }
            else if (value == JsonToken.VALUE_NUMBER_INT && isLong(parser))
            {
                final long number = parser.getLongValue();
                switch (name)
                {
                    case "id" -> ok = hasId = number >= 0;
                    case "budgetMicros" -> ok = hasBudget = true;
                    case "dailyBudgetMicros" -> ok = true;
                    case "maxBidCpmMicros" -> ok = true;
                    default -> ok = false;
                }
                id = "id".equals(name) ? number : id;
                budget = "budgetMicros".equals(name) ? number : budget;
                daily = "dailyBudgetMicros".equals(name) ? number : daily;
                maxBid = "maxBidCpmMicros".equals(name) ? number : maxBid;
            }
            else if (value == JsonToken.VALUE_STRING)
            {
                final String text = parser.getText();
                switch (name)
                {
                    case "start" -> ok = (start = shared(STARTS, CampaignDefinitionParser.instantOrNull(text))) != null;
                    case "end" -> ok = (end = shared(ENDS, CampaignDefinitionParser.instantOrNull(text))) != null;
                    case "timeZone" -> ok = (zone = zoneOrNull(text)) != null;
                    case "pacing" -> ok = (pacing = named(PacingMode.values(), text)) != null;
                    case "status" -> ok = (status = named(CampaignStatus.values(), text)) != null;
                    default -> ok = false;
                }
            }
            if (!ok)
            {
                return giveUp(parser, value);
            }
        }
        if (!hasId || !hasBudget || start == null || end == null)
        {
            return null;
        }
        try
        {
            final @CurrencyMicros long budgetMicros = Units.currencyMicros(budget);
            final @CurrencyMicros long dailyBudgetMicros = Units.currencyMicros(daily);
            final @CpmMicros long maxBidCpmMicros = Units.cpmMicros(maxBid);
            return new CampaignDefinition(id, budgetMicros, dailyBudgetMicros, start, end,
                zone == null ? ZoneIds.UTC : zone, maxBidCpmMicros, pacing, status);
        }
        catch (final InvalidDefinitionException ex)
        {
            return null;
        }
    }

    /** Moves past the rest of the object; {@code current} is the token the reader stopped at. */
    private static CampaignDefinition giveUp(final JsonParser parser, final JsonToken current) throws IOException
    {
        if (current.isStructStart())
        {
            parser.skipChildren();
        }
        for (JsonToken token = parser.nextToken(); token != JsonToken.END_OBJECT; token = parser.nextToken())
        {
            if (token.isStructStart())
            {
                parser.skipChildren();
            }
        }
        return null;
    }

    private static boolean isLong(final JsonParser parser) throws IOException
    {
        final JsonParser.NumberType type = parser.getNumberType();
        return type == JsonParser.NumberType.INT || type == JsonParser.NumberType.LONG;
    }

    private static ZoneId zoneOrNull(final String text)
    {
        try
        {
            return ZoneIds.of(text);
        }
        catch (final DateTimeException ex)
        {
            return null;
        }
    }

    private static <E extends Enum<E>> E named(final E[] constants, final String text)
    {
        for (final E constant : constants)
        {
            if (constant.name().equals(text))
            {
                return constant;
            }
        }
        return null;
    }
}
