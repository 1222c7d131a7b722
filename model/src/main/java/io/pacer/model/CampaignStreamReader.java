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
    /** A campaign's fields, one bit each, to find one given twice. */
    private static final int ID = 1;
    private static final int BUDGET = 1 << 1;
    private static final int DAILY_BUDGET = 1 << 2;
    private static final int START = 1 << 3;
    private static final int END = 1 << 4;
    private static final int TIME_ZONE = 1 << 5;
    private static final int MAX_BID = 1 << 6;
    private static final int PACING = 1 << 7;
    private static final int STATUS = 1 << 8;

    /** The fields a JSON null may stand for: absent, given their defaults. */
    private static final int OPTIONAL = DAILY_BUDGET | TIME_ZONE | MAX_BID | PACING | STATUS;

    /** Flight bounds: campaigns in a row mostly share them. */
    private static final InstantMemo STARTS = new InstantMemo();
    private static final InstantMemo ENDS = new InstantMemo();

    private CampaignStreamReader()
    {
    }

    /** The field's bit; 0 for a name that is not a campaign's field. */
    private static int field(final String name)
    {
        return switch (name)
        {
            case "id" -> ID;
            case "budgetMicros" -> BUDGET;
            case "dailyBudgetMicros" -> DAILY_BUDGET;
            case "start" -> START;
            case "end" -> END;
            case "timeZone" -> TIME_ZONE;
            case "maxBidCpmMicros" -> MAX_BID;
            case "pacing" -> PACING;
            case "status" -> STATUS;
            default -> 0;
        };
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
        int seen = 0;
        for (JsonToken token = parser.nextToken(); token != JsonToken.END_OBJECT; token = parser.nextToken())
        {
            final String name = parser.currentName();
            final int field = field(name);
            final JsonToken value = parser.nextToken();
            if (field == 0 || (seen & field) != 0)
            {
                // unknown or given twice: the tree path names it (the file's parser leaves duplicate
                // names to this reader, it does not look for them itself)
                return giveUp(parser, value);
            }
            seen |= field;
            boolean ok = false;
            if (value == JsonToken.VALUE_NULL)
            {
                // absent, as the tree path reads it: fine where optional
                ok = (field & OPTIONAL) != 0;
            }
            else if (value == JsonToken.VALUE_NUMBER_INT && isLong(parser))
            {
                final long number = parser.getLongValue();
                switch (field)
                {
                    case ID ->
                    {
                        id = number;
                        ok = hasId = number >= 0;
                    }
                    case BUDGET ->
                    {
                        budget = number;
                        ok = hasBudget = true;
                    }
                    case DAILY_BUDGET ->
                    {
                        daily = number;
                        ok = true;
                    }
                    case MAX_BID ->
                    {
                        maxBid = number;
                        ok = true;
                    }
                    default -> ok = false;
                }
            }
            else if (value == JsonToken.VALUE_STRING)
            {
                final char[] text = parser.getTextCharacters();
                final int offset = parser.getTextOffset();
                final int length = parser.getTextLength();
                switch (field)
                {
                    case START -> ok = (start = STARTS.parse(text, offset, length)) != null;
                    case END -> ok = (end = ENDS.parse(text, offset, length)) != null;
                    case TIME_ZONE -> ok = (zone = zoneOrNull(parser.getText())) != null;
                    case PACING -> ok = (pacing = named(PacingMode.values(), text, offset, length)) != null;
                    case STATUS -> ok = (status = named(CampaignStatus.values(), text, offset, length)) != null;
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

    private static <E extends Enum<E>> E named(final E[] constants, final char[] text, final int offset, final int length)
    {
        for (final E constant : constants)
        {
            if (sameText(constant.name(), text, offset, length))
            {
                return constant;
            }
        }
        return null;
    }

    /** Whether {@code text[offset, offset + length)} is {@code string}. */
    static boolean sameText(final String string, final char[] text, final int offset, final int length)
    {
        if (string.length() != length)
        {
            return false;
        }
        for (int i = 0; i < length; i++)
        {
            if (string.charAt(i) != text[offset + i])
            {
                return false;
            }
        }
        return true;
    }
}
