package io.pacer.server.admin;

import io.netty.handler.codec.http.HttpResponseStatus;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Checks {@code Authorization: Bearer <token>} on admin requests, comparing in constant time.
 * <ul>
 *   <li>With a token file ({@link AdminTokens}), every request but {@code GET /health} needs a
 *       token: a {@code read} token for GETs ({@code /metrics} too), a {@code write} token for
 *       PUTs. {@code pacer.admin.token}, if also set, is one more write token.</li>
 *   <li>With {@code pacer.admin.token} alone, PUTs need it and GETs do not.</li>
 *   <li>With neither, every request passes (the listener is then loopback-only).</li>
 * </ul>
 */
public final class BearerTokenCheck
{
    /** What a request needs its token to allow. */
    public enum Role
    {
        /** GET: campaigns, metrics. */
        READ,
        /** PUT: campaign changes. */
        WRITE
    }

    private static final String PREFIX = "Bearer ";

    private final byte[] single;
    private final AdminTokens file;
    private final AtomicLong rejections = new AtomicLong();

    public BearerTokenCheck(final String token)
    {
        this(token, null);
    }

    /**
     * @param token     {@code pacer.admin.token}; empty: none
     * @param tokenFile {@code pacer.admin.tokens-file}, read now; null: none
     * @throws IllegalArgumentException if the token file cannot be read or parsed
     */
    public BearerTokenCheck(final String token, final Path tokenFile)
    {
        this.single = token.isEmpty() ? null : token.getBytes(StandardCharsets.UTF_8);
        this.file = tokenFile == null ? null : new AdminTokens(tokenFile);
    }

    /** On the admin event loop: passes, or throws 401 (no or unknown token) or 403 (a read token for a PUT). */
    void check(final String authorization, final Role needed)
    {
        if (file == null && (single == null || needed == Role.READ))
        {
            return;
        }
        final byte[] presented = authorization != null && authorization.regionMatches(true, 0, PREFIX, 0, PREFIX.length()) ?
            authorization.substring(PREFIX.length()).trim().getBytes(StandardCharsets.UTF_8) : new byte[0];
        Role granted = single != null && MessageDigest.isEqual(single, presented) ? Role.WRITE : null;
        if (file != null)
        {
            // every token compared, so the time taken does not say which one matched
            for (final AdminTokens.Token token : file.current())
            {
                if (MessageDigest.isEqual(token.secret(), presented) && granted != Role.WRITE)
                {
                    granted = token.role();
                }
            }
        }
        if (granted == null)
        {
            rejections.incrementAndGet();
            throw new HttpProblem(HttpResponseStatus.UNAUTHORIZED,
                authorization == null ? "missing Authorization: Bearer token" : "invalid bearer token")
                .header("WWW-Authenticate", "Bearer realm=\"pacer-admin\"");
        }
        if (needed == Role.WRITE && granted != Role.WRITE)
        {
            rejections.incrementAndGet();
            throw new HttpProblem(HttpResponseStatus.FORBIDDEN, "this token may read, not write");
        }
    }

    /** Token-file re-reads that failed (the tokens read before stayed valid). */
    public long tokenFileReloadFailures()
    {
        return file == null ? 0 : file.reloadFailures();
    }

    /** Requests refused for a missing or wrong token. */
    public long rejections()
    {
        return rejections.get();
    }
}
