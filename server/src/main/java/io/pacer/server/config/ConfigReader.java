package io.pacer.server.config;

import com.typesafe.config.Config;
import com.typesafe.config.ConfigException;
import com.typesafe.config.ConfigObject;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.function.Function;

/**
 * Reads typed values out of a resolved Typesafe {@link Config}: a value of the wrong type stops
 * start-up with an {@link InvalidConfigException} naming its key. Ranges and relations between
 * values are the section records' business, checked once in their constructors.
 */
final class ConfigReader
{
    private final Config config;
    private final Path home;

    ConfigReader(final Config config)
    {
        this.config = config;
        this.home = Path.of(string("pacer.home")).toAbsolutePath().normalize();
    }

    /** {@code pacer.home}: where relative paths in the configuration start. */
    Path home()
    {
        return home;
    }

    boolean has(final String key)
    {
        return config.hasPath(key);
    }

    String string(final String key)
    {
        return read(key, config::getString, "");
    }

    boolean bool(final String key)
    {
        return read(key, config::getBoolean, "must be true or false: ");
    }

    int integer(final String key)
    {
        return read(key, config::getInt, "must be an integer: ");
    }

    List<String> strings(final String key)
    {
        return read(key, config::getStringList, "must be a list of strings: ");
    }

    /** The keys directly under {@code key}, in sorted order; none if it is absent. */
    List<String> childNames(final String key)
    {
        if (!config.hasPath(key))
        {
            return List.of();
        }
        final ConfigObject object = read(key, config::getObject, "must be an object: ");
        return object.keySet().stream().sorted().toList();
    }

    long bytes(final String key)
    {
        return read(key, config::getBytes, "must be a size such as 256KiB: ");
    }

    /** A size ({@link #bytes}) that must fit an {@code int}: beyond that, a complaint naming the key. */
    int intBytes(final String key)
    {
        final long bytes = bytes(key);
        if (bytes > Integer.MAX_VALUE)
        {
            throw new InvalidConfigException(key, "must be at most " + Integer.MAX_VALUE + " bytes, was " + bytes);
        }
        return (int)bytes;
    }

    Duration duration(final String key)
    {
        return read(key, config::getDuration, "must be a duration such as 0s, 500ms or 30s: ");
    }

    /** {@code get} of {@code key}; Typesafe Config's complaint, after {@code expected}, names the key. */
    private static <T> T read(final String key, final Function<String, T> get, final String expected)
    {
        try
        {
            return get.apply(key);
        }
        catch (final ConfigException ex)
        {
            throw new InvalidConfigException(key, expected + ex.getMessage());
        }
    }

    /** A path relative to {@code pacer.home}; empty gives null. */
    Path path(final String key)
    {
        final String value = string(key);
        return value.isBlank() ? null : home.resolve(value).normalize();
    }

    /** The key's string turned into a {@code T} by {@code parse}, whose IllegalArgumentException names what is accepted. */
    <T> T parsed(final String key, final Function<String, T> parse)
    {
        try
        {
            return parse.apply(string(key));
        }
        catch (final IllegalArgumentException ex)
        {
            throw new InvalidConfigException(key, ex.getMessage());
        }
    }

    /** The listener's TLS files under {@code prefix}. */
    TlsFiles tls(final String prefix)
    {
        final String clientCa = prefix + ".tls.client-ca-file";
        return new TlsFiles(prefix, path(prefix + ".tls.cert-file"), path(prefix + ".tls.key-file"),
            has(clientCa) ? path(clientCa) : null);
    }
}
