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
     * Variables of earlier versions, with what took their place: set, they stop start-up rather
     * than be ignored (an ignored token file would leave the admin API open).
     */
    static final Map<String, String> REPLACED = Map.of(
        "PACER_ADMIN_TOKEN_FILE", "PACER_ADMIN_TOKENS_FILE (pacer.admin.tokens-file)",
        "PACER_CLUSTER_ENABLED", "pacer.cluster.members in the operator's file (cluster mode is on when it names the members)");
    /**
     * The replaced variable that was a switch: set to a false (false, no, off, 0) it asked for what
     * is still the default, a single node, and is let pass (a template that always exports it).
     */
    private static final String REPLACED_SWITCH = "PACER_CLUSTER_ENABLED";

    private static final Pattern VARIABLE = Pattern.compile("PACER_[A-Z0-9_]+");
    private static final Set<String> OFF = Set.of("false", "no", "off", "0");
    private static final String PROBE = "\u0000set by an environment variable";
    private static final String HOME = "pacer.home";

    private EnvironmentLayer()
    {
    }

    /**
     * The pacer's variables among {@code environment}: those named {@code PACER_...} and not empty
     * (empty is unset: a template's unset placeholder must not clear what the file sets, such as a
     * token).
     *
     * @throws InvalidConfigException for a variable of an earlier version ({@link #REPLACED})
     */
    static Map<String, String> variables(final Map<String, String> environment)
    {
        final Map<String, String> variables = new TreeMap<>();
        environment.forEach((name, value) ->
        {
            if (value.isEmpty() || !VARIABLE.matcher(name).matches())
            {
                return;
            }
            if (REPLACED.containsKey(name))
            {
                if (!name.equals(REPLACED_SWITCH) || !OFF.contains(value.toLowerCase(Locale.ROOT)))
                {
                    throw new InvalidConfigException(name, "no longer read; use " + REPLACED.get(name) + ", see docs/operations.md");
                }
                return;
            }
            variables.put(name, value);
        });
        return variables;
    }

    /**
     * The layer the pacer's {@code variables} ({@link #variables}) make, its values taken from
     * {@code resolved}, {@link #reference} of the same variables (which the caller needs too, as
     * the bottom layer).
     */
    static Config of(final Map<String, String> variables, final Config resolved)
    {
        Config layer = ConfigFactory.empty("environment variables");
        if (variables.isEmpty())
        {
            return layer;
        }
        final Map<String, String> probes = new TreeMap<>();
        variables.keySet().forEach(name -> probes.put(name, PROBE));
        final Config probed = reference(probes);
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
