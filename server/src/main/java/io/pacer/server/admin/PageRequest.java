package io.pacer.server.admin;

import io.netty.handler.codec.http.HttpResponseStatus;
import io.pacer.model.CampaignFilter;
import io.pacer.model.CampaignStatus;
import io.pacer.model.PacingMode;

import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The query of {@code GET /campaigns} (docs/operations.md): {@code after} (an id, unsigned; the
 * page starts past it), {@code limit} ({@value #DEFAULT_LIMIT} by default, at most
 * {@value #MAX_LIMIT}), and the filters {@code status} and {@code pacing}. Anything else is refused,
 * naming the parameter.
 */
record PageRequest(boolean fromStart, long afterId, int limit, CampaignFilter filter)
{
    static final int DEFAULT_LIMIT = 100;
    static final int MAX_LIMIT = 1_000;

    static PageRequest parse(final Map<String, List<String>> parameters)
    {
        for (final String name : parameters.keySet())
        {
            if (!List.of("after", "limit", "status", "pacing").contains(name))
            {
                throw badRequest(name, "unknown parameter; accepted: after, limit, status, pacing");
            }
        }
        final String after = single(parameters, "after");
        final String limitText = single(parameters, "limit");
        final String status = single(parameters, "status");
        final String pacing = single(parameters, "pacing");
        long afterId = 0;
        if (after != null)
        {
            try
            {
                afterId = Long.parseUnsignedLong(after);
            }
            catch (final NumberFormatException ex)
            {
                throw badRequest("after", "must be a campaign id (an unsigned 64-bit integer), was \"" + after + "\"");
            }
        }
        int limit = DEFAULT_LIMIT;
        if (limitText != null)
        {
            try
            {
                limit = Integer.parseInt(limitText);
            }
            catch (final NumberFormatException ex)
            {
                limit = -1;
            }
            if (limit < 1 || limit > MAX_LIMIT)
            {
                throw badRequest("limit", "must be an integer from 1 to " + MAX_LIMIT + ", was \"" + limitText + "\"");
            }
        }
        return new PageRequest(after == null, afterId, limit, new CampaignFilter(
            status == null ? null : named(CampaignStatus.class, "status", status),
            pacing == null ? null : named(PacingMode.class, "pacing", pacing)));
    }

    private static String single(final Map<String, List<String>> parameters, final String name)
    {
        final List<String> values = parameters.get(name);
        if (values == null)
        {
            return null;
        }
        if (values.size() != 1)
        {
            throw badRequest(name, "must be given once");
        }
        return values.get(0);
    }

    private static <E extends Enum<E>> E named(final Class<E> type, final String parameter, final String value)
    {
        try
        {
            return Enum.valueOf(type, value.toUpperCase(Locale.ROOT));
        }
        catch (final IllegalArgumentException ex)
        {
            throw badRequest(parameter, "must be one of " + java.util.Arrays.toString(type.getEnumConstants()) +
                ", was \"" + value + "\"");
        }
    }

    private static HttpProblem badRequest(final String parameter, final String problem)
    {
        return new HttpProblem(HttpResponseStatus.BAD_REQUEST, parameter + ": " + problem);
    }
}
