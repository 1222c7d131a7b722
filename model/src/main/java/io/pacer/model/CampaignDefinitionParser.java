package io.pacer.model;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.core.json.JsonReadFeature;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.ObjectReader;
import com.fasterxml.jackson.databind.json.JsonMapper;
import io.pacer.units.CpmMicros;
import io.pacer.units.CurrencyMicros;
import io.pacer.units.Units;

import java.io.IOException;
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.time.DateTimeException;
import java.time.Instant;
import java.time.LocalDate;
import java.time.OffsetDateTime;
import java.time.Month;
import java.time.Year;
import java.time.ZoneId;
import java.time.format.DateTimeParseException;
import java.util.Arrays;
import java.util.Iterator;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * Reads campaign definitions (docs/operations.md) from JSON, strictly: unknown or duplicate fields,
 * wrong types (a quoted number is a string), negative money or an end before the start are
 * rejected with an {@link InvalidDefinitionException} that names the field. Jackson's tree
 * keeps every number exact, so the whole unsigned 64-bit id range survives.
 */
public final class CampaignDefinitionParser
{
    private static final Set<String> FIELDS = Set.of(
        "id", "budgetMicros", "dailyBudgetMicros", "start", "end", "timeZone", "maxBidCpmMicros", "pacing", "status");
    private static final BigInteger TWO_TO_64 = BigInteger.ONE.shiftLeft(64);

    /** Admin bodies: strict JSON. */
    private static final ObjectMapper STRICT = JsonMapper.builder()
        .enable(JsonParser.Feature.STRICT_DUPLICATE_DETECTION)
        .enable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS)
        .build();
    /**
     * Campaigns files: JSON that operators may annotate with comments and trailing commas. A
     * file's parser does not look for names given twice (that set per object was a quarter of
     * reading a million campaigns): {@link CampaignStreamReader} does, and gives such a campaign to
     * {@link #ELEMENT}, which does.
     */
    static final JsonMapper FILE = JsonMapper.builder()
        .enable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS)
        .enable(JsonReadFeature.ALLOW_JAVA_COMMENTS, JsonReadFeature.ALLOW_YAML_COMMENTS, JsonReadFeature.ALLOW_TRAILING_COMMA)
        .build();

    /** One element of a campaigns file's array, read from the file's stream (more follow it). */
    static final ObjectReader ELEMENT = FILE.reader().without(DeserializationFeature.FAIL_ON_TRAILING_TOKENS)
        .with(JsonParser.Feature.STRICT_DUPLICATE_DETECTION);

    private CampaignDefinitionParser()
    {
    }

    /**
     * Parses one definition from a JSON document (the admin API's PUT body, a journal's update
     * record). A well-formed definition is read straight from the parser's tokens
     * ({@link CampaignStreamReader}; replaying a million journaled updates spent most of its time
     * building their trees); anything else is read as a tree, which says exactly what is wrong.
     */
    public static CampaignDefinition parseJson(final String json)
    {
        final CampaignDefinition streamed = readStreamed(json);
        return streamed != null ? streamed : parse(read(STRICT, json), "");
    }

    /** The definition when {@code json} is one object that {@link CampaignStreamReader} accepts, with nothing after it; else null. */
    private static CampaignDefinition readStreamed(final String json)
    {
        try (JsonParser parser = STRICT.createParser(json))
        {
            if (parser.nextToken() != JsonToken.START_OBJECT)
            {
                return null;
            }
            final CampaignDefinition definition = CampaignStreamReader.read(parser);
            return definition != null && parser.nextToken() == null ? definition : null;
        }
        catch (final IOException ex)
        {
            return null;
        }
    }

    /**
     * Parses a campaigns file, {@code { "campaigns": [ ... ] }}. The whole file is rejected if any
     * campaign is invalid or two share an id.
     */
    public static List<CampaignDefinition> parseCampaignsFile(final String text)
    {
        return parseCampaignsFile(text.getBytes(StandardCharsets.UTF_8));
    }

    /**
     * {@link #parseCampaignsFile(String)} from the file's bytes (UTF-8). The file is streamed: each
     * campaign is read from the parser's tokens ({@link CampaignStreamReader}; as a small tree only
     * when something is wrong with it), so that a million campaigns never stand in memory as one
     * tree (that tree was most of the garbage collection when one loaded).
     */
    public static List<CampaignDefinition> parseCampaignsFile(final byte[] utf8)
    {
        return CampaignFile.empty().next(utf8).changed();
    }

    /** Parses one definition from a JSON tree; {@code prefix} is put before field names in errors. */
    public static CampaignDefinition parse(final JsonNode object, final String prefix)
    {
        if (!object.isObject())
        {
            throw new InvalidDefinitionException(prefix.isEmpty() ? "document" : prefix.substring(0, prefix.length() - 1),
                "must be an object, was " + typeName(object));
        }
        for (final Iterator<String> names = object.fieldNames(); names.hasNext(); )
        {
            final String name = names.next();
            if (!FIELDS.contains(name))
            {
                throw new InvalidDefinitionException(prefix + name, "unknown field");
            }
        }
        final long id = unsignedLong(object, prefix, "id");
        final @CurrencyMicros long budgetMicros = Units.currencyMicros(integer(object, prefix, "budgetMicros", true));
        final @CurrencyMicros long dailyBudgetMicros = Units.currencyMicros(integer(object, prefix,
        "dailyBudgetMicros", false));
        final Instant start = instant(object, prefix, "start");
        final Instant end = instant(object, prefix, "end");
        final ZoneId zone = zone(object, prefix);
        final @CpmMicros long maxBidCpmMicros = Units.cpmMicros(integer(object, prefix, "maxBidCpmMicros", false));
        final PacingMode pacing = enumValue(object, prefix, "pacing", PacingMode.class, PacingMode.EVEN);
        final CampaignStatus status = enumValue(object, prefix, "status", CampaignStatus.class, CampaignStatus.ACTIVE);
        try
        {
            return new CampaignDefinition(id, budgetMicros, dailyBudgetMicros, start, end, zone, maxBidCpmMicros, pacing, status);
        }
        catch (final InvalidDefinitionException ex)
        {
            if (prefix.isEmpty())
            {
                throw ex;
            }
            throw new InvalidDefinitionException(prefix + ex.field(), ex.getMessage().substring(ex.field().length() + 2));
        }
    }

    static JsonNode readStrict(final String text)
    {
        return read(STRICT, text);
    }

    private static JsonNode read(final ObjectMapper mapper, final String text)
    {
        try
        {
            final JsonNode node = mapper.readTree(text);
            if (node == null || node.isMissingNode())
            {
                throw new InvalidDefinitionException("document", "is empty");
            }
            return node;
        }
        catch (final JsonProcessingException ex)
        {
            throw new InvalidDefinitionException("document", "not valid json: " + ex.getOriginalMessage());
        }
    }

    private static JsonNode present(final JsonNode object, final String field)
    {
        final JsonNode value = object.get(field);
        return value == null || value.isNull() ? null : value;
    }

    private static JsonNode required(final JsonNode object, final String prefix, final String field)
    {
        final JsonNode value = present(object, field);
        if (value == null)
        {
            throw new InvalidDefinitionException(prefix + field, "is required");
        }
        return value;
    }

    private static long unsignedLong(final JsonNode object, final String prefix, final String field)
    {
        final JsonNode value = required(object, prefix, field);
        if (!value.isIntegralNumber())
        {
            throw new InvalidDefinitionException(prefix + field, "must be an unsigned 64-bit integer, was " + typeName(value));
        }
        final BigInteger number = value.bigIntegerValue();
        if (number.signum() < 0 || number.compareTo(TWO_TO_64) >= 0)
        {
            throw new InvalidDefinitionException(prefix + field, "must be an unsigned 64-bit integer, was " + number);
        }
        return number.longValue();
    }

    private static long integer(final JsonNode object, final String prefix, final String field, final boolean isRequired)
    {
        final JsonNode value = isRequired ? required(object, prefix, field) : present(object, field);
        if (value == null)
        {
            return 0;
        }
        if (!value.isIntegralNumber())
        {
            throw new InvalidDefinitionException(prefix + field, "must be an integer number of micros, was " + typeName(value));
        }
        if (!value.canConvertToLong())
        {
            throw new InvalidDefinitionException(prefix + field, "must be <= " + Money.MAX_MICROS + ", was " + value.asText());
        }
        return value.longValue();
    }

    private static String string(final JsonNode object, final String prefix, final String field)
    {
        final JsonNode value = required(object, prefix, field);
        if (!value.isTextual())
        {
            throw new InvalidDefinitionException(prefix + field, "must be a string, was " + typeName(value));
        }
        return value.textValue();
    }

    private static Instant instant(final JsonNode object, final String prefix, final String field)
    {
        final String text = string(object, prefix, field);
        final Instant instant = instantOrNull(text);
        if (instant == null)
        {
            throw new InvalidDefinitionException(prefix + field,
                "must be an ISO-8601 instant such as 2026-12-02T00:00:00Z, was \"" + text + "\"");
        }
        return instant;
    }

    /** An ISO-8601 instant, UTC or with an offset; null if {@code text} is neither. */
    static Instant instantOrNull(final String text)
    {
        final Instant common = utcInstant(text);
        if (common != null)
        {
            return common;
        }
        try
        {
            return Instant.parse(text);
        }
        catch (final DateTimeParseException notUtc)
        {
            try
            {
                return OffsetDateTime.parse(text).toInstant();
            }
            catch (final DateTimeParseException ex)
            {
                return null;
            }
        }
    }

    /**
     * {@code yyyy-MM-ddTHH:mm:ss[.f{1,9}]Z}, the form nearly every campaigns file uses, read without
     * {@code DateTimeFormatter} (which took half of loading a million campaigns); null for
     * anything else, which {@link Instant#parse} then reads or rejects. Gives what
     * {@link Instant#parse} gives for every string it accepts.
     */
    static Instant utcInstant(final String s)
    {
        final int n = s.length();
        if (n < 20 || n == 21 || n > 30 || s.charAt(4) != '-' || s.charAt(7) != '-' || s.charAt(10) != 'T' ||
            s.charAt(13) != ':' || s.charAt(16) != ':' || s.charAt(n - 1) != 'Z' || (n > 20 && s.charAt(19) != '.'))
        {
            return null;
        }
        final int year = digits(s, 0, 4);
        final int month = digits(s, 5, 7);
        final int day = digits(s, 8, 10);
        final int hour = digits(s, 11, 13);
        final int minute = digits(s, 14, 16);
        final int second = digits(s, 17, 19);
        final int fraction = n > 20 ? digits(s, 20, n - 1) : 0;
        if (year < 0 || month < 1 || month > 12 || day < 1 || day > 31 || hour < 0 || hour > 23 || minute < 0 ||
            minute > 59 || second < 0 || second > 59 || fraction < 0)
        {
            return null;
        }
        if (day > Month.of(month).length(Year.isLeap(year)))
        {
            return null;
        }
        // a fraction of d digits (d = n - 21) is fraction * 10^(9 - d) nanoseconds
        int nanos = fraction;
        for (int digits = Math.max(0, n - 21); digits < 9; digits++)
        {
            nanos *= 10;
        }
        final long epochDay = LocalDate.of(year, month, day).toEpochDay();
        return Instant.ofEpochSecond(epochDay * 86_400 + hour * 3_600L + minute * 60L + second, nanos);
    }

    /** The decimal number in {@code s[from, to)}, or -1 if any of it is not a digit. */
    private static int digits(final String s, final int from, final int to)
    {
        int value = 0;
        for (int i = from; i < to; i++)
        {
            final char c = s.charAt(i);
            if (c < '0' || c > '9')
            {
                return -1;
            }
            value = value * 10 + (c - '0');
        }
        return value;
    }

    private static ZoneId zone(final JsonNode object, final String prefix)
    {
        if (present(object, "timeZone") == null)
        {
            return ZoneIds.UTC;
        }
        final String text = string(object, prefix, "timeZone");
        try
        {
            return ZoneIds.of(text);
        }
        catch (final DateTimeException ex)
        {
            throw new InvalidDefinitionException(prefix + "timeZone",
                "must be an IANA zone id such as America/New_York, was \"" + text + "\"");
        }
    }

    private static <E extends Enum<E>> E enumValue(
        final JsonNode object, final String prefix, final String field, final Class<E> type, final E defaultValue)
    {
        if (present(object, field) == null)
        {
            return defaultValue;
        }
        final String text = string(object, prefix, field);
        for (final E constant : type.getEnumConstants())
        {
            if (constant.name().equals(text))
            {
                return constant;
            }
        }
        throw new InvalidDefinitionException(prefix + field,
            "must be one of " + Arrays.toString(type.getEnumConstants()) + ", was \"" + text + "\"");
    }

    static String typeName(final JsonNode value)
    {
        return value.getNodeType().name().toLowerCase(Locale.ROOT);
    }
}
