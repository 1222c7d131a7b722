package io.pacer.server;

import com.typesafe.config.Config;
import com.typesafe.config.ConfigException;
import com.typesafe.config.ConfigFactory;
import com.typesafe.config.ConfigParseOptions;
import io.pacer.model.PacingPolicy;
import io.pacer.pipeline.PipelineConfig;
import io.pacer.pipeline.ThreadingMode;
import io.pacer.pipeline.WaitStrategies;

import java.net.InetAddress;
import java.net.UnknownHostException;
import java.nio.file.Files;
import java.nio.file.Path;
import io.netty.handler.ssl.SslContext;
import io.pacer.server.gateway.GatewaySettings;

import java.time.Duration;
import java.util.Map;

/**
 * The server's configuration, read with Typesafe Config and validated as a whole at start-up:
 * any unusable value stops start-up with an {@link InvalidConfigException} naming its key.
 */
public final class PacerConfig
{
    private final Path home;
    private final String gatewayHost;
    private final int gatewayPort;
    private final int gatewayIoThreads;
    private final int maxFrameBytes;
    private final int maxConnections;
    private final Duration idleTimeout;
    private final int writeHighWaterMark;
    private final long maxUnwrittenBytes;
    private final Duration slowReaderTimeout;
    private final SslContext gatewayTls;
    private final SslContext adminTls;
    private final String adminHost;
    private final int adminPort;
    private final String adminToken;
    private final int adminMaxBodyBytes;
    private final Path campaignsFile;
    private final Duration campaignsPollInterval;
    private final Path journalDir;
    private final PipelineConfig pipeline;
    private final Duration shutdownTimeout;
    private final boolean metricsEnabled;
    private final boolean journalEnabled;
    private final String journalFsync;
    private final Duration journalFsyncInterval;
    private final long journalSegmentBytes;
    private final boolean journalTruncateCorrupt;
    private final Duration snapshotInterval;
    private final boolean retainCoveredSegments;

    private PacerConfig(final Config config)
    {
        this.home = Path.of(string(config, "pacer.home")).toAbsolutePath().normalize();
        this.gatewayHost = host(config, "pacer.gateway.host");
        this.gatewayPort = port(config, "pacer.gateway.port");
        this.gatewayIoThreads = intInRange(config, "pacer.gateway.io-threads", 1, 64);
        this.maxFrameBytes = intInRange(config, "pacer.gateway.max-frame-bytes", 38, 16 << 20);
        this.maxConnections = intInRange(config, "pacer.gateway.max-connections", 1, 1_000_000);
        this.idleTimeout = duration(config, "pacer.gateway.idle-timeout", true);
        this.writeHighWaterMark = (int)bytes(config, "pacer.gateway.write-high-water-mark", 4096, 64 << 20);
        this.maxUnwrittenBytes = bytes(config, "pacer.gateway.max-unwritten-bytes", 8192, 1L << 30);
        if (maxUnwrittenBytes <= writeHighWaterMark)
        {
            throw new InvalidConfigException("pacer.gateway.max-unwritten-bytes",
                "must exceed pacer.gateway.write-high-water-mark (" + writeHighWaterMark + " bytes), was " + maxUnwrittenBytes);
        }
        this.slowReaderTimeout = duration(config, "pacer.gateway.slow-reader-timeout", true);
        // read now, so that unusable TLS files stop start-up naming their key
        this.gatewayTls = tls(config, home, "pacer.gateway").serverContext();
        this.adminTls = tls(config, home, "pacer.admin").serverContext();
        this.adminHost = host(config, "pacer.admin.host");
        this.adminPort = port(config, "pacer.admin.port");
        this.adminToken = string(config, "pacer.admin.token");
        this.adminMaxBodyBytes = intInRange(config, "pacer.admin.max-body-bytes", 1024, 64 << 20);
        final String file = string(config, "pacer.campaigns.file");
        this.campaignsFile = file.isBlank() ? null : home.resolve(file).normalize();
        this.campaignsPollInterval = duration(config, "pacer.campaigns.poll-interval", false);
        this.journalDir = home.resolve(string(config, "pacer.journal.dir")).normalize();
        this.shutdownTimeout = duration(config, "pacer.shutdown.timeout", false);
        this.metricsEnabled = bool(config, "pacer.metrics.enabled");
        this.journalEnabled = bool(config, "pacer.journal.enabled");
        this.journalFsync = string(config, "pacer.journal.fsync").toLowerCase(java.util.Locale.ROOT);
        if (!java.util.List.of("periodic", "batch", "never").contains(journalFsync))
        {
            throw new InvalidConfigException("pacer.journal.fsync", "must be periodic, batch or never, was \"" + journalFsync + "\"");
        }
        this.journalFsyncInterval = duration(config, "pacer.journal.fsync-interval", false);
        try
        {
            this.journalSegmentBytes = config.getBytes("pacer.journal.segment-size");
        }
        catch (final ConfigException ex)
        {
            throw new InvalidConfigException("pacer.journal.segment-size", "must be a size such as 256MiB: " + ex.getMessage());
        }
        if (journalSegmentBytes < 1 << 20 || journalSegmentBytes > 1L << 30)
        {
            throw new InvalidConfigException("pacer.journal.segment-size", "must be between 1MiB and 1GiB");
        }
        this.journalTruncateCorrupt = bool(config, "pacer.journal.truncate-corrupt");
        this.snapshotInterval = duration(config, "pacer.journal.snapshot-interval", true);
        final String retention = string(config, "pacer.journal.retention");
        if (!"keep".equals(retention) && !"delete-covered".equals(retention))
        {
            throw new InvalidConfigException("pacer.journal.retention", "must be keep or delete-covered, was \"" + retention + "\"");
        }
        this.retainCoveredSegments = "keep".equals(retention);

        final int shards = intInRange(config, "pacer.pipeline.shards", 1, 64);
        requirePowerOfTwo("pacer.pipeline.shards", shards);
        final int ringSize = intInRange(config, "pacer.pipeline.ring-size", 64, 1 << 26);
        requirePowerOfTwo("pacer.pipeline.ring-size", ringSize);
        final String waitStrategy = string(config, "pacer.pipeline.wait-strategy");
        try
        {
            WaitStrategies.fromName(waitStrategy);
        }
        catch (final IllegalArgumentException ex)
        {
            throw new InvalidConfigException("pacer.pipeline.wait-strategy", ex.getMessage());
        }
        final ThreadingMode threading;
        try
        {
            threading = ThreadingMode.fromName(string(config, "pacer.pipeline.threading"));
        }
        catch (final IllegalArgumentException ex)
        {
            throw new InvalidConfigException("pacer.pipeline.threading", ex.getMessage());
        }
        final long tickMillis = duration(config, "pacer.pipeline.tick-interval", false).toMillis();
        final long ttlMillis = duration(config, "pacer.pacing.reservation-ttl", false).toMillis();
        final Duration replan = duration(config, "pacer.pacing.replan-interval", false);
        if (replan.compareTo(Duration.ofHours(1)) > 0)
        {
            throw new InvalidConfigException("pacer.pacing.replan-interval", "must be at most 1h, was " + replan);
        }
        final long dedupeMillis = config.hasPath("pacer.pacing.notice-dedupe-window") ?
            duration(config, "pacer.pacing.notice-dedupe-window", false).toMillis() : 2 * Math.max(1, ttlMillis);
        if (dedupeMillis < 2 * Math.max(1, ttlMillis))
        {
            throw new InvalidConfigException("pacer.pacing.notice-dedupe-window",
                "must be at least twice pacer.pacing.reservation-ttl (" + 2 * Math.max(1, ttlMillis) + " ms), was " +
                dedupeMillis + " ms");
        }
        final long queueDeadlineNanos = duration(config, "pacer.pipeline.queue-deadline", true).toNanos();
        this.pipeline = new PipelineConfig(shards, ringSize, waitStrategy, Math.max(1, tickMillis),
            new PacingPolicy(Math.max(1, ttlMillis), Math.max(1, replan.toMillis()), dedupeMillis), queueDeadlineNanos,
            threading);

        if (adminToken.isEmpty() && !isLoopback(adminHost))
        {
            throw new InvalidConfigException("pacer.admin.token",
                "must be set when pacer.admin.host (" + adminHost + ") is not a loopback address");
        }
    }

    /**
     * Loads the configuration: system properties, then {@code file} (or {@code -Dconfig.file}) if
     * given, then the embedded {@code reference.conf}.
     */
    public static PacerConfig load(final Path file)
    {
        return load(file, Map.of());
    }

    /** As {@link #load(Path)}, with {@code overrides} (key to value) above everything else. */
    public static PacerConfig load(final Path file, final Map<String, ?> overrides)
    {
        ConfigFactory.invalidateCaches();
        Config operator = ConfigFactory.empty();
        if (file != null)
        {
            if (!Files.isRegularFile(file))
            {
                throw new InvalidConfigException("--config", "no such file: " + file);
            }
            operator = parse(file);
        }
        else if (System.getProperty("config.file") != null)
        {
            final Path fromProperty = Path.of(System.getProperty("config.file"));
            if (!Files.isRegularFile(fromProperty))
            {
                throw new InvalidConfigException("config.file", "no such file: " + fromProperty);
            }
            operator = parse(fromProperty);
        }
        try
        {
            final Config resolved = ConfigFactory.parseMap(overrides, "overrides")
                .withFallback(ConfigFactory.systemProperties())
                .withFallback(operator)
                .withFallback(ConfigFactory.defaultReference())
                .resolve();
            resolved.checkValid(ConfigFactory.defaultReference(), "pacer");
            return new PacerConfig(resolved);
        }
        catch (final ConfigException ex)
        {
            // Typesafe Config's own message names the key and where its value came from
            throw new InvalidConfigException("configuration", ex.getMessage());
        }
    }

    private static Config parse(final Path file)
    {
        try
        {
            return ConfigFactory.parseFile(file.toFile(), ConfigParseOptions.defaults().setAllowMissing(false));
        }
        catch (final ConfigException ex)
        {
            throw new InvalidConfigException(file.toString(), ex.getMessage());
        }
    }

    private static String string(final Config config, final String key)
    {
        try
        {
            return config.getString(key);
        }
        catch (final ConfigException ex)
        {
            throw new InvalidConfigException(key, ex.getMessage());
        }
    }

    private static boolean bool(final Config config, final String key)
    {
        try
        {
            return config.getBoolean(key);
        }
        catch (final ConfigException ex)
        {
            throw new InvalidConfigException(key, "must be true or false: " + ex.getMessage());
        }
    }

    private static int intInRange(final Config config, final String key, final int min, final int max)
    {
        final int value;
        try
        {
            value = config.getInt(key);
        }
        catch (final ConfigException ex)
        {
            throw new InvalidConfigException(key, "must be an integer: " + ex.getMessage());
        }
        if (value < min || value > max)
        {
            throw new InvalidConfigException(key, "must be between " + min + " and " + max + ", was " + value);
        }
        return value;
    }

    private static int port(final Config config, final String key)
    {
        return intInRange(config, key, 0, 65_535);
    }

    private static String host(final Config config, final String key)
    {
        final String host = string(config, key);
        if (host.isBlank())
        {
            throw new InvalidConfigException(key, "must not be empty");
        }
        return host;
    }

    private static long bytes(final Config config, final String key, final long min, final long max)
    {
        final long value;
        try
        {
            value = config.getBytes(key);
        }
        catch (final ConfigException ex)
        {
            throw new InvalidConfigException(key, "must be a size such as 256KiB: " + ex.getMessage());
        }
        if (value < min || value > max)
        {
            throw new InvalidConfigException(key, "must be between " + min + " and " + max + " bytes, was " + value);
        }
        return value;
    }

    private static TlsFiles tls(final Config config, final Path home, final String prefix)
    {
        final String cert = string(config, prefix + ".tls.cert-file");
        final String key = string(config, prefix + ".tls.key-file");
        return new TlsFiles(prefix, cert.isBlank() ? null : home.resolve(cert).normalize(),
            key.isBlank() ? null : home.resolve(key).normalize());
    }

    /** A duration that must be positive, or with {@code zeroAllowed} may also be 0 ("off"). */
    private static Duration duration(final Config config, final String key, final boolean zeroAllowed)
    {
        final Duration value;
        try
        {
            value = config.getDuration(key);
        }
        catch (final ConfigException ex)
        {
            throw new InvalidConfigException(key, "must be a duration such as " + (zeroAllowed ? "0s, " : "") +
                "500ms or 30s: " + ex.getMessage());
        }
        if (value.isNegative() || (value.isZero() && !zeroAllowed))
        {
            throw new InvalidConfigException(key, (zeroAllowed ? "must be >= 0" : "must be positive") + ", was " + value);
        }
        return value;
    }

    private static void requirePowerOfTwo(final String key, final int value)
    {
        if (Integer.bitCount(value) != 1)
        {
            throw new InvalidConfigException(key, "must be a power of two, was " + value);
        }
    }

    static boolean isLoopback(final String host)
    {
        try
        {
            for (final InetAddress address : InetAddress.getAllByName(host))
            {
                if (!address.isLoopbackAddress())
                {
                    return false;
                }
            }
            return true;
        }
        catch (final UnknownHostException ex)
        {
            return false;
        }
    }


    public Path home()
    {
        return home;
    }

    public String gatewayHost()
    {
        return gatewayHost;
    }

    public int gatewayPort()
    {
        return gatewayPort;
    }

    public int gatewayIoThreads()
    {
        return gatewayIoThreads;
    }

    public int maxFrameBytes()
    {
        return maxFrameBytes;
    }

    public int maxConnections()
    {
        return maxConnections;
    }

    /** Zero: no idle timeout. */
    public Duration idleTimeout()
    {
        return idleTimeout;
    }

    /** The gateway listener's limits and TLS. */
    public GatewaySettings gatewaySettings()
    {
        return new GatewaySettings(maxFrameBytes, maxConnections, idleTimeout, writeHighWaterMark, maxUnwrittenBytes,
            slowReaderTimeout, gatewayTls);
    }

    /** The admin listener's TLS context, or null for plain HTTP. */
    public SslContext adminTls()
    {
        return adminTls;
    }

    public String adminHost()
    {
        return adminHost;
    }

    public int adminPort()
    {
        return adminPort;
    }

    /** Empty: no token required. */
    public String adminToken()
    {
        return adminToken;
    }

    public int adminMaxBodyBytes()
    {
        return adminMaxBodyBytes;
    }

    /** Null when no campaigns file is configured. */
    public Path campaignsFile()
    {
        return campaignsFile;
    }

    public Duration campaignsPollInterval()
    {
        return campaignsPollInterval;
    }

    public Path journalDir()
    {
        return journalDir;
    }

    public PipelineConfig pipeline()
    {
        return pipeline;
    }

    public Duration shutdownTimeout()
    {
        return shutdownTimeout;
    }

    public boolean journalEnabled()
    {
        return journalEnabled;
    }

    /** periodic, batch or never. */
    public String journalFsync()
    {
        return journalFsync;
    }

    public Duration journalFsyncInterval()
    {
        return journalFsyncInterval;
    }

    public long journalSegmentBytes()
    {
        return journalSegmentBytes;
    }

    public boolean journalTruncateCorrupt()
    {
        return journalTruncateCorrupt;
    }

    /** Zero: no periodic snapshots. */
    public Duration snapshotInterval()
    {
        return snapshotInterval;
    }

    /** False when covered journal segments are deleted after each snapshot. */
    public boolean retainCoveredSegments()
    {
        return retainCoveredSegments;
    }

    /** Whether /metrics is served and decisions are counted and timed. */
    public boolean metricsEnabled()
    {
        return metricsEnabled;
    }
}
