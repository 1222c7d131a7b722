package io.pacer.server.gateway;

import io.netty.handler.ssl.SslContext;

import java.time.Duration;

/**
 * The gateway listener's limits, from {@code pacer.gateway.*}.
 *
 * @param maxFrameBytes      largest frame accepted; larger is MALFORMED_FRAME
 * @param maxConnections     connections past this are closed at once and counted
 * @param idleTimeout        close a connection that sent nothing for this long; zero: never
 * @param writeHighWaterMark unwritten answer bytes past which a connection stops being read (it
 *                           resumes below half of it)
 * @param maxUnwrittenBytes  unwritten answer bytes past which a connection is closed
 * @param slowReaderTimeout  close a connection that stays past the high-water mark this long;
 *                           zero: never
 * @param tls                server TLS context, or null for plain TCP
 */
public record GatewaySettings(
    int maxFrameBytes, int maxConnections, Duration idleTimeout, int writeHighWaterMark, long maxUnwrittenBytes,
    Duration slowReaderTimeout, SslContext tls)
{
    public GatewaySettings
    {
        if (maxUnwrittenBytes <= writeHighWaterMark)
        {
            throw new IllegalArgumentException("maxUnwrittenBytes (" + maxUnwrittenBytes +
                ") must exceed writeHighWaterMark (" + writeHighWaterMark + ")");
        }
    }
}
