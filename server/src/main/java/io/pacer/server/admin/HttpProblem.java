package io.pacer.server.admin;

import io.netty.handler.codec.http.HttpResponseStatus;

import java.util.LinkedHashMap;
import java.util.Map;

/** An admin request that ends in an error status with {@code {"error": message}}. */
final class HttpProblem extends RuntimeException
{
    private static final long serialVersionUID = 1L;

    final transient HttpResponseStatus status;
    final Map<String, String> headers = new LinkedHashMap<>();

    HttpProblem(final HttpResponseStatus status, final String message)
    {
        super(message, null, false, false);
        this.status = status;
    }

    HttpProblem header(final String name, final String value)
    {
        headers.put(name, value);
        return this;
    }
}
