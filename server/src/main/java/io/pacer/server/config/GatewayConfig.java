package io.pacer.server.config;

import com.google.errorprone.annotations.Immutable;

import java.time.Duration;

/**
 * The gateway listener, {@code pacer.gateway.*}, validated once, here.
 *
 * @param host               address to listen on
 * @param port               TCP port; 0 picks a free one
 * @param ioThreads          Netty event loops reading gateway connections
 * @param maxFrameBytes      largest frame accepted; larger is MALFORMED_FRAME
 * @param maxConnections     connections past this are closed at once and counted
 * @param idleTimeout        close a connection that sent nothing for this long; zero: never
 * @param writeHighWaterMark unwritten answer bytes past which a connection stops being read (it
 *                           resumes below half of it)
 * @param maxUnwrittenBytes  unwritten answer bytes past which a connection is closed
 * @param slowReaderTimeout  close a connection that stays past the high-water mark this long;
 *                           zero: never
 * @param tls                server TLS files, or none for plain TCP
 * @param allow              the sources connections are accepted from ({@code pacer.gateway.allow})
 * @param permissions        what each gateway identity may send ({@code pacer.gateways})
 */
@Immutable
public record GatewayConfig(
    String host, int port, int ioThreads, int maxFrameBytes, int maxConnections, Duration idleTimeout,
    long writeHighWaterMark, long maxUnwrittenBytes, Duration slowReaderTimeout, TlsFiles tls, SourceAllowlist allow,
    GatewayPermissions permissions)
{
    static final String PREFIX = "pacer.gateway.";

    public GatewayConfig
    {
        Check.notBlank(PREFIX + "host", host);
        Check.range(PREFIX + "port", port, 0, 65_535);
        Check.range(PREFIX + "io-threads", ioThreads, 1, 64);
        Check.range(PREFIX + "max-frame-bytes", maxFrameBytes, 38, 16 << 20);
        Check.range(PREFIX + "max-connections", maxConnections, 1, 1_000_000);
        Check.nonNegative(PREFIX + "idle-timeout", idleTimeout);
        Check.bytes(PREFIX + "write-high-water-mark", writeHighWaterMark, 4096, 64 << 20);
        Check.bytes(PREFIX + "max-unwritten-bytes", maxUnwrittenBytes, 8192, 1L << 30);
        if (maxUnwrittenBytes <= writeHighWaterMark)
        {
            throw new InvalidConfigException(PREFIX + "max-unwritten-bytes",
                "must exceed " + PREFIX + "write-high-water-mark (" + writeHighWaterMark + " bytes), was " + maxUnwrittenBytes);
        }
        Check.nonNegative(PREFIX + "slow-reader-timeout", slowReaderTimeout);
        if (permissions.enforced() && !tls.mutual())
        {
            throw new InvalidConfigException(GatewayPermissions.KEY,
                "needs " + PREFIX + "tls.client-ca-file: a gateway's identity is its client certificate");
        }
    }

    static GatewayConfig read(final ConfigReader in)
    {
        return new GatewayConfig(
            in.string(PREFIX + "host"),
            in.integer(PREFIX + "port"),
            in.integer(PREFIX + "io-threads"),
            in.intBytes(PREFIX + "max-frame-bytes"),
            in.integer(PREFIX + "max-connections"),
            in.duration(PREFIX + "idle-timeout"),
            in.bytes(PREFIX + "write-high-water-mark"),
            in.bytes(PREFIX + "max-unwritten-bytes"),
            in.duration(PREFIX + "slow-reader-timeout"),
            in.tls("pacer.gateway"),
            new SourceAllowlist(PREFIX + "allow", in.strings(PREFIX + "allow")),
            GatewayPermissions.read(in));
    }
}
