package io.pacer.server;

import io.netty.handler.ssl.ClientAuth;
import io.netty.handler.ssl.OpenSsl;
import io.netty.handler.ssl.SslContext;
import io.netty.handler.ssl.SslContextBuilder;
import io.pacer.server.config.InvalidConfigException;
import io.pacer.server.config.TlsFiles;
import io.pacer.server.net.ReloadingTls;
import org.slf4j.LoggerFactory;

/** Builds a listener's Netty TLS context from its configured files, at start-up. */
final class ServerTls
{
    private ServerTls()
    {
    }

    /** The listener's context, rebuilt when its files change; null when TLS is off. */
    static ReloadingTls reloading(final TlsFiles files)
    {
        return files.enabled() ? new ReloadingTls(files, ServerTls::context) : null;
    }

    /**
     * The server context for {@code files}, which has TLS on.
     *
     * @throws InvalidConfigException naming the key if the files do not make a usable context
     */
    static SslContext context(final TlsFiles files)
    {
        try
        {
            final SslContextBuilder builder = SslContextBuilder.forServer(files.certFile().toFile(), files.keyFile().toFile());
            if (files.mutual())
            {
                builder.trustManager(files.clientCaFile().toFile()).clientAuth(ClientAuth.REQUIRE);
            }
            final SslContext context = builder.build();
            LoggerFactory.getLogger(ServerTls.class).info("{}: TLS with {}{} ({})", files.prefix(), files.certFile(),
                files.mutual() ? ", client certificates required, chaining to " + files.clientCaFile() : "",
                OpenSsl.isAvailable() ? "BoringSSL through netty-tcnative" : "the JDK's TLS: netty-tcnative is not available here");
            return context;
        }
        catch (final Exception | Error ex)
        {
            throw new InvalidConfigException(files.prefix() + ".tls.cert-file",
                "with " + files.prefix() + ".tls.key-file" + (files.mutual() ? " and .tls.client-ca-file" : "") +
                ", must be a PEM certificate chain and its PEM (PKCS#8) key" +
                (files.mutual() ? ", and a PEM bundle of CA certificates" : "") + ": " + ex);
        }
    }
}
