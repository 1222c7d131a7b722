package io.pacer.server.admin;

import io.netty.handler.codec.http.HttpResponseStatus;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Checks {@code Authorization: Bearer <token>} on mutating admin requests, in constant time.
 * With no token configured every request passes (the listener is then loopback-only).
 */
public final class BearerTokenCheck
{
    private static final String PREFIX = "Bearer ";

    private final byte[] expected;
    private final AtomicLong rejections = new AtomicLong();

    public BearerTokenCheck(final String token)
    {
        this.expected = token.isEmpty() ? null : token.getBytes(StandardCharsets.UTF_8);
    }

    void check(final String authorization)
    {
        if (expected == null)
        {
            return;
        }
        final byte[] presented = authorization != null && authorization.regionMatches(true, 0, PREFIX, 0, PREFIX.length()) ?
            authorization.substring(PREFIX.length()).trim().getBytes(StandardCharsets.UTF_8) : new byte[0];
        if (!MessageDigest.isEqual(expected, presented))
        {
            rejections.incrementAndGet();
            throw new HttpProblem(HttpResponseStatus.UNAUTHORIZED,
                authorization == null ? "missing Authorization: Bearer token" : "invalid bearer token")
                .header("WWW-Authenticate", "Bearer realm=\"pacer-admin\"");
        }
    }

    /** Requests refused for a missing or wrong token. */
    public long rejections()
    {
        return rejections.get();
    }
}
