package io.pacer.server.config;

/** A configuration value is unusable; the message names the key. */
public final class InvalidConfigException extends RuntimeException
{
    private static final long serialVersionUID = 1L;

    public InvalidConfigException(final String key, final String problem)
    {
        super(key + ": " + problem);
    }
}
