package io.pacer.server.config;

import com.typesafe.config.Config;
import com.typesafe.config.ConfigValue;

import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

/**
 * Refuses keys under {@code pacer.} that the pacer does not know. A misspelt key would otherwise
 * be ignored in silence, and the server would run on the default it meant to change; for a
 * security key that default can be "off". The known keys are those of {@code reference.conf}.
 */
final class UnknownKeys
{
    /** Keys of earlier versions, with what took their place (an operator's old file names them). */
    static final Map<String, String> REPLACED = Map.of(
        "pacer.admin.token-file", "pacer.admin.tokens-file",
        "pacer.gateway.permissions", "pacer.gateways (one section per identity)",
        "pacer.cluster.enabled", "pacer.cluster.members (cluster mode is on when it names the members)");
    /** Sections whose keys are names the operator chooses, checked by their own reader. */
    static final Set<String> OPEN_SECTIONS = Set.of("pacer.gateways.");

    private UnknownKeys()
    {
    }

    /**
     * @throws InvalidConfigException naming the first unknown key (in sorted order), with the
     *                                closest known key when one is near enough to be a typo
     */
    static void check(final Config resolved, final Config reference)
    {
        if (!resolved.hasPath("pacer"))
        {
            return;
        }
        final Set<String> known = new TreeSet<>();
        for (final Map.Entry<String, ConfigValue> entry : reference.getConfig("pacer").entrySet())
        {
            known.add("pacer." + entry.getKey());
        }
        final Set<String> unknown = new TreeSet<>();
        for (final Map.Entry<String, ConfigValue> entry : resolved.getConfig("pacer").entrySet())
        {
            final String key = "pacer." + entry.getKey();
            // -Dpacer.cluster.members.0=... sets a list's element (Typesafe Config reads lists so from
            // system properties): the list's key is the one known; no known key ends in digits
            if (!known.contains(key.replaceFirst("\\.\\d+$", "")) && OPEN_SECTIONS.stream().noneMatch(key::startsWith))
            {
                unknown.add(key);
            }
        }
        if (unknown.isEmpty())
        {
            return;
        }
        // a key of an earlier version first, wherever it sorts: its message names what replaced it
        for (final String key : unknown)
        {
            final String replaced = replacement(key);
            if (replaced != null)
            {
                throw new InvalidConfigException(key, "no longer a key; use " + replaced + ", see docs/operations.md");
            }
        }
        final String key = unknown.iterator().next();
        final String closest = closest(key, known);
        final String more = unknown.size() > 1 ? " (and " + (unknown.size() - 1) + " more: " + unknown + ")" : "";
        throw new InvalidConfigException(key, "unknown key" +
            (closest == null ? "" : "; did you mean " + closest + "?") + more +
            "; the keys are those of reference.conf, see docs/operations.md");
    }

    /** What replaced {@code key} (or the section it lies in), or null if it is not a key of an earlier version. */
    private static String replacement(final String key)
    {
        return REPLACED.entrySet().stream()
            .filter(old -> key.equals(old.getKey()) || key.startsWith(old.getKey() + "."))
            .map(Map.Entry::getValue).findFirst().orElse(null);
    }

    /** The known key nearest to {@code key}, if it is near enough to be a typo of it; else null. */
    static String closest(final String key, final Set<String> known)
    {
        String best = null;
        int bestDistance = Integer.MAX_VALUE;
        for (final String candidate : known)
        {
            final int distance = distance(key, candidate);
            if (distance < bestDistance)
            {
                bestDistance = distance;
                best = candidate;
            }
        }
        final String leaf = key.substring(key.lastIndexOf('.') + 1);
        return bestDistance <= Math.max(2, leaf.length() / 3) ? best : null;
    }

    /** Levenshtein distance: insertions, deletions and substitutions. */
    private static int distance(final String a, final String b)
    {
        int[] previous = new int[b.length() + 1];
        int[] current = new int[b.length() + 1];
        for (int j = 0; j <= b.length(); j++)
        {
            previous[j] = j;
        }
        for (int i = 1; i <= a.length(); i++)
        {
            current[0] = i;
            for (int j = 1; j <= b.length(); j++)
            {
                final int substitution = previous[j - 1] + (a.charAt(i - 1) == b.charAt(j - 1) ? 0 : 1);
                current[j] = Math.min(substitution, Math.min(previous[j], current[j - 1]) + 1);
            }
            final int[] swap = previous;
            previous = current;
            current = swap;
        }
        return previous[b.length()];
    }
}
