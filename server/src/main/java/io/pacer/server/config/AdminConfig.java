package io.pacer.server.config;

import com.google.errorprone.annotations.Immutable;

import java.net.InetAddress;
import java.nio.file.Path;
import java.net.UnknownHostException;

/**
 * The admin HTTP listener, {@code pacer.admin.*}, validated once, here: a listener reachable from
 * other hosts must have a token.
 *
 * @param host         address to listen on
 * @param port         TCP port; 0 picks a free one
 * @param token        one bearer token with the write role, from configuration or the environment;
 *                     empty: none
 * @param tokenFile    the token file ({@code pacer.admin.tokens-file}): tokens with roles, re-read
 *                     when it changes; null: none. With neither, only a loopback listener starts
 * @param maxBodyBytes largest request body accepted
 * @param tls          server TLS files, or none for plain HTTP
 * @param allow        the sources connections are accepted from ({@code pacer.admin.allow})
 */
@Immutable
public record AdminConfig(
    String host, int port, String token, Path tokenFile, int maxBodyBytes, TlsFiles tls, SourceAllowlist allow)
{
    static final String PREFIX = "pacer.admin.";
    /** The tokens file's key (its errors name it). */
    public static final String TOKENS_FILE = PREFIX + "tokens-file";

    public AdminConfig
    {
        Check.notBlank(PREFIX + "host", host);
        Check.range(PREFIX + "port", port, 0, 65_535);
        Check.range(PREFIX + "max-body-bytes", maxBodyBytes, 1024, 64 << 20);
        if (token.isEmpty() && tokenFile == null && !isLoopback(host))
        {
            throw new InvalidConfigException(PREFIX + "token",
                "must be set (or " + TOKENS_FILE + ") when " + PREFIX + "host (" + host + ") is not a loopback address");
        }
        Check.readableFile(TOKENS_FILE, tokenFile);
        Check.privateFile(TOKENS_FILE, tokenFile);
    }

    static AdminConfig read(final ConfigReader in)
    {
        return new AdminConfig(in.string(PREFIX + "host"), in.integer(PREFIX + "port"), in.string(PREFIX + "token"),
            in.path(TOKENS_FILE),
            in.intBytes(PREFIX + "max-body-bytes"), in.tls("pacer.admin"),
            new SourceAllowlist(PREFIX + "allow", in.strings(PREFIX + "allow")));
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
}
