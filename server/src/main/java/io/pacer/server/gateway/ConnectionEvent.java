package io.pacer.server.gateway;

/**
 * What happens to a gateway connection, once per connection or per episode (not per request),
 * each counted in {@link GatewayStats} and exported under its own metric name.
 */
public enum ConnectionEvent
{
    ACCEPTED("pacer.connections.accepted", "Gateway connections accepted"),
    REFUSED("pacer.connections.refused", "Gateway connections closed at once: max-connections were open"),
    NOT_ALLOWED("pacer.connections.not.allowed",
        "Gateway connections closed at accept, before any read: their source is not in pacer.gateway.allow"),
    TLS_HANDSHAKE_FAILED("pacer.connections.tls.handshake.failed",
        "Gateway connections refused at the TLS handshake (no client certificate, one from another CA, or not TLS)"),
    IDLE_CLOSED("pacer.connections.idle.closed", "Gateway connections closed after idle-timeout"),
    SLOW_READER_PAUSED("pacer.connections.slow.reader.paused",
        "Times a gateway connection stopped being read: its unwritten answers passed write-high-water-mark"),
    SLOW_READER_CLOSED("pacer.connections.slow.reader.closed",
        "Gateway connections closed for not reading their answers (max-unwritten-bytes or slow-reader-timeout)"),
    RING_BACKPRESSURE("pacer.connections.ring.backpressure",
        "Times a gateway connection stopped being read: the ring had no room for a notice");

    private final String metricName;
    private final String help;

    ConnectionEvent(final String metricName, final String help)
    {
        this.metricName = metricName;
        this.help = help;
    }

    /** The Micrometer name of its counter. */
    public String metricName()
    {
        return metricName;
    }

    public String help()
    {
        return help;
    }
}
