package io.pacer.server;

import io.netty.handler.ssl.SslContext;
import io.netty.handler.ssl.OpenSsl;
import io.netty.handler.ssl.SslContextBuilder;
import org.slf4j.LoggerFactory;

import java.nio.file.Files;
import java.nio.file.Path;

/**
 * A listener's optional TLS: a PEM certificate chain and its PEM (PKCS#8) private key, as set
 * by {@code <prefix>.tls.cert-file} and {@code <prefix>.tls.key-file}. Both empty: plain TCP.
 *
 * @param prefix   the listener's config prefix, for messages naming the key
 * @param certFile the certificate chain, or null
 * @param keyFile  the private key, or null
 */
public record TlsFiles(String prefix, Path certFile, Path keyFile)
{
    public TlsFiles
    {
        if ((certFile == null) != (keyFile == null))
        {
            throw new InvalidConfigException(prefix + (certFile == null ? ".tls.cert-file" : ".tls.key-file"),
                "must be set together with " + prefix + (certFile == null ? ".tls.key-file" : ".tls.cert-file"));
        }
        requireReadable(prefix + ".tls.cert-file", certFile);
        requireReadable(prefix + ".tls.key-file", keyFile);
    }

    public boolean enabled()
    {
        return certFile != null;
    }

    /**
     * The server context, or null when TLS is off.
     *
     * @throws InvalidConfigException naming the key if the files do not make a usable context
     */
    public SslContext serverContext()
    {
        if (!enabled())
        {
            return null;
        }
        try
        {
            final SslContext context = SslContextBuilder.forServer(certFile.toFile(), keyFile.toFile()).build();
            LoggerFactory.getLogger(TlsFiles.class).info("{}: TLS with {} ({})", prefix, certFile,
                OpenSsl.isAvailable() ? "BoringSSL through netty-tcnative" : "the JDK's TLS: netty-tcnative is not available here");
            return context;
        }
        catch (final Exception | Error ex)
        {
            throw new InvalidConfigException(prefix + ".tls.cert-file",
                "with " + prefix + ".tls.key-file, must be a PEM certificate chain and its PEM (PKCS#8) key: " + ex);
        }
    }

    private static void requireReadable(final String key, final Path file)
    {
        if (file != null && !Files.isReadable(file))
        {
            throw new InvalidConfigException(key, "no readable file at " + file);
        }
    }
}
