package io.pacer.server;

import io.pacer.server.gateway.ConnectionEvent;
import io.pacer.server.gateway.GatewayStats;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.io.InputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;

import static io.pacer.server.TestPacer.asap;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@code pacer.gateway.allow} and {@code pacer.admin.allow} on a real server, with 127.0.0.2 as
 * the source outside the list (all of 127.0.0.0/8 is loopback).
 */
class SourceAllowlistIntegrationTest
{
    private static final InetAddress OUTSIDE = address("127.0.0.2");

    @Test
    void shouldCloseAGatewayConnectionFromOutsideTheListBeforeReadingAnything() throws Exception
    {
        try (TestPacer pacer = TestPacer.start(Map.of("pacer.gateway.allow", List.of("127.0.0.1/32")), asap(1, 1_000_000));
             GatewayClient inside = pacer.client();
             GatewayClient outside = new GatewayClient(pacer.server.gatewayAddress(), null, OUTSIDE))
        {
            try
            {
                outside.bid(1, 1, 1_000).send();
            }
            catch (final IOException alreadyClosed)
            {
                // closed at accept, before the bid could even be sent
            }
            outside.timeoutMillis(5_000);

            assertThat(outside.isClosedByServer()).isTrue();
            final GatewayStats stats = pacer.server.gatewayStats();
            assertThat(stats.total(ConnectionEvent.NOT_ALLOWED)).isEqualTo(1);
            assertThat(stats.total(GatewayStats.BYTES_IN)).as("nothing read from it").isZero();
            assertThat(stats.total(GatewayStats.BID_REQUESTS)).isZero();
            assertThat(inside.ask(2, 1, 1_000)).isEqualTo("BID 2");
        }
    }

    @Test
    void shouldCloseAnAdminConnectionFromOutsideTheListAndServeTheRest() throws Exception
    {
        try (TestPacer pacer = TestPacer.start(Map.of("pacer.admin.allow", List.of("127.0.0.1")), asap(1, 1_000_000)))
        {
            final InetSocketAddress admin = pacer.server.adminAddress();

            assertThat(health(admin, OUTSIDE)).as("closed unanswered").isEmpty();
            assertThat(health(admin, address("127.0.0.1"))).startsWith("HTTP/1.1 200");
            assertThat(pacer.server.metrics().scrape(io.pacer.monitoring.PacerMetrics.PROMETHEUS_TEXT)).contains("pacer_admin_connections_not_allowed_total 1.0");
        }
    }

    @Test
    void shouldLetEverySourceInWhenTheListIsEmpty() throws Exception
    {
        try (TestPacer pacer = TestPacer.start(asap(1, 1_000_000));
             GatewayClient outside = new GatewayClient(pacer.server.gatewayAddress(), null, OUTSIDE))
        {
            assertThat(outside.ask(1, 1, 1_000)).isEqualTo("BID 1");
        }
    }

    /** A raw GET /health from {@code from}: what came back before the server closed ("" if nothing). */
    private static String health(final InetSocketAddress admin, final InetAddress from) throws IOException
    {
        try (Socket socket = new Socket())
        {
            socket.bind(new InetSocketAddress(from, 0));
            socket.connect(admin, 5_000);
            socket.setSoTimeout(5_000);
            try
            {
                socket.getOutputStream().write(
                    "GET /health HTTP/1.1\r\nHost: pacer\r\nConnection: close\r\n\r\n".getBytes(StandardCharsets.US_ASCII));
                final InputStream in = socket.getInputStream();
                return new String(in.readAllBytes(), StandardCharsets.US_ASCII);
            }
            catch (final IOException reset)
            {
                return "";
            }
        }
    }

    private static InetAddress address(final String literal)
    {
        try
        {
            return InetAddress.getByName(literal);
        }
        catch (final IOException ex)
        {
            throw new IllegalStateException(ex);
        }
    }
}
