package io.pacer.server.config;

import java.time.Duration;

/** The range checks the section records apply in their constructors, each naming the key it checks. */
final class Check
{
    private Check()
    {
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
