package io.pacer.server.config;

import com.typesafe.config.Config;
import com.typesafe.config.ConfigFactory;
import com.typesafe.config.ConfigResolveOptions;
import com.typesafe.config.ConfigValue;

import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.regex.Pattern;

/**
 * The configuration layer the {@code PACER_...} environment variables make: the keys that
 * {@code reference.conf} lets a variable set ({@code key = ${?PACER_...}}), at the variables'
 * values, so that {@link PacerConfig} can put them above the operator's file.
 *
 * <p>A key is in the layer when a variable sets it, even to the key's default (an empty variable
 * counts as unset, so that a deployment template's unset placeholder cannot clear what the file
 * sets, such as a token): each set variable is
 * resolved once as a probe value no key has, and the keys that come out as the probe are the ones
 * the variables set. {@code PACER_HOME} is left below the operator's file, as before: bin/pacer
 * always exports it (the checkout), and a file's own {@code pacer.home} must win over that.
 */
final class EnvironmentLayer
{
    /**
     * Variables of earlier versions, with what took their place: set (to anything but "" or a false
     * such as false, no, off or 0),
     * they stop start-up rather than be ignored (an ignored token file would leave the admin API open).
     */
    static final Map<String, String> REPLACED = Map.of(
        "PACER_ADMIN_TOKEN_FILE", "PACER_ADMIN_TOKENS_FILE (pacer.admin.tokens-file)",
        "PACER_CLUSTER_ENABLED", "pacer.cluster.members in the operator's file (cluster mode is on when it names the members)");

    private static final Pattern VARIABLE = Pattern.compile("PACER_[A-Z0-9_]+");
    private static final Set<String> OFF = Set.of("false", "no", "off", "0");
    private static final String PROBE = "\u0000set by an environment variable";
    private static final String HOME = "pacer.home";

    private EnvironmentLayer()
    {
    }

    /** The layer {@code variables} (the environment) make; variables not named {@code PACER_...} are ignored. */
    static Config of(final Map<String, String> variables)
    {
        final Map<String, String> values = new TreeMap<>();
        final Map<String, String> probes = new TreeMap<>();
        variables.forEach((name, value) ->
        {
            if (value.isEmpty() || !VARIABLE.matcher(name).matches())
            {
                // empty is unset (a template's ${UNSET} must not clear the file's token); a name no
                // ${?PACER_...} can name is not the pacer's
                return;
            }
            if (REPLACED.containsKey(name))
            {
                if (!OFF.contains(value.toLowerCase(Locale.ROOT)))
                {
                    throw new InvalidConfigException(name, "no longer read; use " + REPLACED.get(name) + ", see docs/operations.md");
                }
                return;
            }
            values.put(name, value);
            probes.put(name, PROBE);
        });
        Config layer = ConfigFactory.empty("environment variables");
        if (values.isEmpty())
        {
            return layer;
        }
        final Config probed = reference(probes);
        final Config resolved = reference(values);
        for (final Map.Entry<String, ConfigValue> entry : probed.getConfig("pacer").entrySet())
        {
            final String key = "pacer." + entry.getKey();
            if (PROBE.equals(entry.getValue().unwrapped()) && !HOME.equals(key))
            {
                layer = layer.withValue(key, resolved.getValue(key));
            }
        }
        return layer;
    }

    /**
     * {@code reference.conf} resolved with {@code variables} as the only environment its
     * substitutions see (as root keys beside {@code pacer}); with none, the embedded defaults alone.
     */
    static Config reference(final Map<String, String> variables)
    {
        return ConfigFactory.defaultReferenceUnresolved()
            .withFallback(ConfigFactory.parseMap(variables, "environment variables"))
            .resolve(ConfigResolveOptions.defaults().setUseSystemEnvironment(false));
    }
}
