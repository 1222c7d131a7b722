package io.pacer.server.config;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.EnumSet;
import java.util.Set;

/** The range checks the section records apply in their constructors, each naming the key it checks. */
final class Check
{
    private Check()
    {
    }

    /** Permissions that let users other than the owner read or change a file. */
    private static final Set<PosixFilePermission> SHARED = EnumSet.of(PosixFilePermission.GROUP_READ,
        PosixFilePermission.GROUP_WRITE, PosixFilePermission.OTHERS_READ, PosixFilePermission.OTHERS_WRITE);

    /**
     * A secret (private key, token file) must be readable by its owner only. On a file system
     * without POSIX permissions there is nothing to check.
     */
    static void privateFile(final String key, final Path file)
    {
        if (file == null)
        {
            return;
        }
        final Set<PosixFilePermission> permissions;
        try
        {
            permissions = Files.getPosixFilePermissions(file);
        }
        catch (final UnsupportedOperationException ex)
        {
            return;
        }
        catch (final IOException ex)
        {
            throw new InvalidConfigException(key, "cannot read the permissions of " + file + ": " + ex.getMessage());
        }
        if (permissions.stream().anyMatch(SHARED::contains))
        {
            throw new InvalidConfigException(key, file + " can be read or changed by other users (" +
                PosixFilePermissions.toString(permissions) + "): it holds a secret; chmod 600 it");
        }
    }

    /** A file the configuration names must be there and readable; null (not set) passes. */
    static void readableFile(final String key, final Path file)
    {
        if (file != null && !Files.isReadable(file))
        {
            throw new InvalidConfigException(key, "no readable file at " + file);
        }
    }

    static int range(final String key, final int value, final int min, final int max)
    {
        if (value < min || value > max)
        {
            throw new InvalidConfigException(key, "must be between " + min + " and " + max + ", was " + value);
        }
        return value;
    }

    static long bytes(final String key, final long value, final long min, final long max)
    {
        if (value < min || value > max)
        {
            throw new InvalidConfigException(key, "must be between " + min + " and " + max + " bytes, was " + value);
        }
        return value;
    }

    static Duration positive(final String key, final Duration value)
    {
        if (value == null || value.isNegative() || value.isZero())
        {
            throw new InvalidConfigException(key, "must be positive, was " + value);
        }
        return value;
    }

    /** Zero is allowed, and means "off". */
    static Duration nonNegative(final String key, final Duration value)
    {
        if (value == null || value.isNegative())
        {
            throw new InvalidConfigException(key, "must be >= 0, was " + value);
        }
        return value;
    }

    static String notBlank(final String key, final String value)
    {
        if (value == null || value.isBlank())
        {
            throw new InvalidConfigException(key, "must not be empty");
        }
        return value;
    }
}
