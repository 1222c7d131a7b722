package io.pacer.server.config;

import com.google.errorprone.annotations.Immutable;

import java.nio.file.Path;

/**
 * A listener's optional TLS: a PEM certificate chain and its PEM (PKCS#8) private key, as set
 * by {@code <prefix>.tls.cert-file} and {@code <prefix>.tls.key-file}. Both empty: plain TCP.
 * The key file must be readable by its owner only.
 * The listener builds its TLS context from these files when it binds ({@code ServerTls}).
 *
 * @param prefix       the listener's config prefix, for messages naming the key
 * @param certFile     the certificate chain, or null
 * @param keyFile      the private key, or null
 * @param clientCaFile the CA bundle client certificates must chain to (mutual TLS), or null
 *                     for none ({@code pacer.gateway.tls.client-ca-file}; the gateway's only)
 */
@Immutable
public record TlsFiles(String prefix, Path certFile, Path keyFile, Path clientCaFile)
{
    public TlsFiles
    {
        if ((certFile == null) != (keyFile == null))
        {
            throw new InvalidConfigException(prefix + (certFile == null ? ".tls.cert-file" : ".tls.key-file"),
                "must be set together with " + prefix + (certFile == null ? ".tls.key-file" : ".tls.cert-file"));
        }
        Check.readableFile(prefix + ".tls.cert-file", certFile);
        Check.readableFile(prefix + ".tls.key-file", keyFile);
        Check.privateFile(prefix + ".tls.key-file", keyFile);
        if (clientCaFile != null && certFile == null)
        {
            throw new InvalidConfigException(prefix + ".tls.client-ca-file",
                "needs " + prefix + ".tls.cert-file and " + prefix + ".tls.key-file: mutual TLS is TLS first");
        }
        Check.readableFile(prefix + ".tls.client-ca-file", clientCaFile);
    }

    /** Plain TCP for the listener under {@code prefix}. */
    public static TlsFiles none(final String prefix)
    {
        return new TlsFiles(prefix, null, null, null);
    }

    public boolean enabled()
    {
        return certFile != null;
    }

    /** Whether clients must present a certificate that chains to {@link #clientCaFile}. */
    public boolean mutual()
    {
        return clientCaFile != null;
    }
}
