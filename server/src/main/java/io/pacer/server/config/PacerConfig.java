package io.pacer.server.config;

import com.google.errorprone.annotations.Immutable;
import com.typesafe.config.Config;
import com.typesafe.config.ConfigException;
import com.typesafe.config.ConfigFactory;
import com.typesafe.config.ConfigParseOptions;
import io.pacer.model.PacingPolicy;
import io.pacer.pipeline.PipelineConfig;
import io.pacer.pipeline.ThreadingMode;
import io.pacer.units.DurationMillis;
import io.pacer.units.Units;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.function.Supplier;

/**
 * The server's configuration, one record per section of {@code reference.conf}, each validated
 * once in its own constructor: any unusable value stops start-up with an
 * {@link InvalidConfigException} naming its key. The pipeline and pacing sections are the
 * pipeline's and the model's own records ({@link PipelineConfig}, {@link PacingPolicy}); their
 * complaints are given the key they came from here.
 *
 * @param home            {@code pacer.home}: where relative paths start
 * @param gateway         {@code pacer.gateway.*}
 * @param admin           {@code pacer.admin.*}
 * @param campaigns       {@code pacer.campaigns.*}
 * @param journal         {@code pacer.journal.*}
 * @param pipeline        {@code pacer.pipeline.*} and {@code pacer.pacing.*}
 * @param shutdownTimeout {@code pacer.shutdown.timeout}: how long a graceful stop may take
 * @param metricsEnabled  {@code pacer.metrics.enabled}: whether /metrics is served and decisions counted and timed
 * @param cluster         {@code pacer.cluster.*}: cluster mode, or a single node
 */
@Immutable
public record PacerConfig(
    Path home, GatewayConfig gateway, AdminConfig admin, CampaignsConfig campaigns, JournalConfig journal,
    PipelineConfig pipeline, Duration shutdownTimeout, boolean metricsEnabled, ClusterConfig cluster)
{
    /** {@code pacer.pacing.notice-dedupe-window}'s default: twice the reservation TTL. */
    private static final String AUTO = "auto";
    private static final Map<String, String> PIPELINE_KEYS = Map.of(
        "shards", "shards", "ringSize", "ring-size", "waitStrategy", "wait-strategy",
        "tickIntervalMillis", "tick-interval", "queueDeadlineNanos", "queue-deadline", "threading", "threading");
    private static final Map<String, String> PACING_KEYS = Map.of(
        "reservationTtlMillis", "reservation-ttl", "replanIntervalMillis", "replan-interval",
        "noticeDedupeWindowMillis", "notice-dedupe-window");

    public PacerConfig
    {
        Check.positive("pacer.shutdown.timeout", shutdownTimeout);
    }

    /**
     * Loads the configuration, each layer above the ones after it: system properties, the
     * environment variables {@code reference.conf} names ({@code ${?PACER_...}}), {@code file} (or
     * {@code -Dconfig.file}) if given, then the embedded {@code reference.conf}. The environment
     * is above the operator's file, so that a deployment's {@code PACER_GATEWAY_PORT} still applies
     * where the file sets the port.
     */
    public static PacerConfig load(final Path file)
    {
        return load(file, Map.of());
    }

    /** As {@link #load(Path)}, with {@code overrides} (key to value) above everything else. */
    public static PacerConfig load(final Path file, final Map<String, ?> overrides)
    {
        return load(file, overrides, System.getenv());
    }

    /** As {@link #load(Path, Map)}, with {@code variables} as the environment. */
    static PacerConfig load(final Path file, final Map<String, ?> overrides, final Map<String, String> variables)
    {
        ConfigFactory.invalidateCaches();
        final String configFile = System.getProperty("config.file");
        final Config operator = file != null ? parse("--config", file) :
            configFile != null ? parse("config.file", Path.of(configFile)) : ConfigFactory.empty();
        // one reading of the environment for both layers it sets: the variables above the file, and
        // reference.conf's own ${?PACER_...} below it (PACER_HOME among them)
        final Map<String, String> pacerVariables = EnvironmentLayer.variables(variables);
        return resolve(() ->
        {
            final Config reference = EnvironmentLayer.reference(pacerVariables);
            return ConfigFactory.parseMap(overrides, "overrides")
                .withFallback(ConfigFactory.systemProperties())
                .withFallback(EnvironmentLayer.of(pacerVariables, reference))
                .withFallback(operator)
                .withFallback(reference);
        });
    }

    /**
     * {@code pacer.home} as the layers below an operator's file give it ({@code -Dpacer.home}, else
     * {@code PACER_HOME}, else the working directory), read the way {@link #load} reads it: where
     * {@code serve} looks for the operator's file before there is one to load.
     */
    public static Path home(final Map<String, String> variables)
    {
        ConfigFactory.invalidateCaches();
        return new ConfigReader(ConfigFactory.systemProperties()
            .withFallback(EnvironmentLayer.reference(EnvironmentLayer.variables(variables))).resolve()).home();
    }

    /**
     * The embedded defaults alone, with {@code overrides} above them: no operator file, system
     * property or environment variable (the demo's sandbox, which must run the same everywhere).
     */
    public static PacerConfig embedded(final Map<String, ?> overrides)
    {
        ConfigFactory.invalidateCaches();
        return resolve(() -> ConfigFactory.parseMap(overrides, "overrides").withFallback(EnvironmentLayer.reference(Map.of())));
    }

    /** Resolves and checks the layers {@code layered} makes, and reads them. */
    private static PacerConfig resolve(final Supplier<Config> layered)
    {
        final Config resolved;
        try
        {
            resolved = layered.get().resolve();
            // against reference.conf alone (not ConfigFactory.defaultReference(), which has the system
            // properties merged in, so that a misspelt -D key would count as one the pacer knows)
            final Config reference = EnvironmentLayer.reference(Map.of());
            resolved.checkValid(reference, "pacer");
            UnknownKeys.check(resolved, reference);
        }
        catch (final ConfigException ex)
        {
            // Typesafe Config's own message names the key and where its value came from
            throw new InvalidConfigException("configuration", ex.getMessage());
        }
        return read(new ConfigReader(resolved));
    }

    private static PacerConfig read(final ConfigReader in)
    {
        return new PacerConfig(
            in.home(),
            GatewayConfig.read(in),
            AdminConfig.read(in),
            CampaignsConfig.read(in),
            JournalConfig.read(in),
            pipeline(in, pacing(in)),
            in.duration("pacer.shutdown.timeout"),
            in.bool("pacer.metrics.enabled"),
            ClusterConfig.read(in));
    }

    private static PipelineConfig pipeline(final ConfigReader in, final PacingPolicy policy)
    {
        final int shards = Check.range("pacer.pipeline.shards", in.integer("pacer.pipeline.shards"), 1, 64);
        final int ringSize = Check.range("pacer.pipeline.ring-size", in.integer("pacer.pipeline.ring-size"), 64, 1 << 26);
        final String waitStrategy = in.string("pacer.pipeline.wait-strategy");
        final ThreadingMode threading = in.parsed("pacer.pipeline.threading", ThreadingMode::fromName);
        final @DurationMillis long tickMillis = millis(in.duration("pacer.pipeline.tick-interval"));
        final long queueDeadlineNanos = in.duration("pacer.pipeline.queue-deadline").toNanos();
        return section("pacer.pipeline.", PIPELINE_KEYS,
            () -> new PipelineConfig(shards, ringSize, waitStrategy, tickMillis, policy, queueDeadlineNanos, threading));
    }

    private static PacingPolicy pacing(final ConfigReader in)
    {
        final @DurationMillis long ttl = millis(in.duration("pacer.pacing.reservation-ttl"));
        final @DurationMillis long replan = millis(in.duration("pacer.pacing.replan-interval"));
        final String dedupeKey = "pacer.pacing.notice-dedupe-window";
        if (AUTO.equals(in.string(dedupeKey)))
        {
            return section("pacer.pacing.", PACING_KEYS, () -> new PacingPolicy(ttl, replan));
        }
        // 0 ("remember none") is only for journals written before the window existed
        final @DurationMillis long dedupe = millis(Check.positive(dedupeKey, in.duration(dedupeKey)));
        return section("pacer.pacing.", PACING_KEYS, () -> new PacingPolicy(ttl, replan, dedupe));
    }

    /** Whole milliseconds, at least 1 for a positive duration shorter than that. */
    private static @DurationMillis long millis(final Duration duration)
    {
        final long millis = duration.toMillis();
        return Units.durationMillis(millis == 0 && !duration.isZero() && !duration.isNegative() ? 1 : millis);
    }

    /**
     * Builds a section record from a lower module; its IllegalArgumentException, whose message
     * starts with the record component's name, becomes an InvalidConfigException naming the key.
     */
    private static <T> T section(final String prefix, final Map<String, String> keys, final Supplier<T> build)
    {
        try
        {
            return build.get();
        }
        catch (final IllegalArgumentException ex)
        {
            final String message = String.valueOf(ex.getMessage());
            final int space = message.indexOf(' ');
            final String key = space < 0 ? null : keys.get(message.substring(0, space));
            throw key == null ?
                new InvalidConfigException(prefix.substring(0, prefix.length() - 1), message) :
                new InvalidConfigException(prefix + key, message.substring(space + 1));
        }
    }

    private static Config parse(final String key, final Path file)
    {
        if (!Files.isRegularFile(file))
        {
            throw new InvalidConfigException(key, "no such file: " + file);
        }
        try
        {
            return ConfigFactory.parseFile(file.toFile(), ConfigParseOptions.defaults().setAllowMissing(false));
        }
        catch (final ConfigException ex)
        {
            throw new InvalidConfigException(file.toString(), ex.getMessage());
        }
    }
}
