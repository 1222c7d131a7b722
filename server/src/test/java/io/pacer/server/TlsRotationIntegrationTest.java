package io.pacer.server;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.math.BigInteger;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.util.Map;

import static io.pacer.server.TestPacer.asap;
import static org.assertj.core.api.Assertions.assertThat;

/** The gateway's certificate rotated on disk while traffic flows, on a real server over TLS. */
class TlsRotationIntegrationTest
{
    @TempDir
    Path dir;

    @Test
    void shouldServeNewConnectionsTheRotatedCertificateAndKeepTheEstablishedOnes() throws Exception
    {
        final TestCertificates certificates = new TestCertificates(dir);
        final Path authority = certificates.authority("rotation-ca");
        final Path cert = dir.resolve("serving.crt");
        final Path key = dir.resolve("serving.key");
        install(certificates.server("rotation-ca", "localhost"), cert, key);
        try (TestPacer pacer = TestPacer.start(Map.of("pacer.gateway.tls.cert-file", cert.toString(),
                "pacer.gateway.tls.key-file", key.toString()), asap(1, 1_000_000_000));
             GatewayClient established = new GatewayClient(pacer.server.gatewayAddress(), certificates.client(null, authority)))
        {
            assertThat(established.ask(1, 1, 1_000)).isEqualTo("BID 1");
            final BigInteger first = established.peerSerial();

            Files.delete(dir.resolve("localhost.p12"));
            install(certificates.server("rotation-ca", "localhost"), cert, key);
            TestPacer.eventually(Duration.ofSeconds(10), () ->
            {
                try (GatewayClient fresh = new GatewayClient(pacer.server.gatewayAddress(), certificates.client(null, authority)))
                {
                    return !fresh.peerSerial().equals(first) && fresh.ask(2, 1, 1_000).equals("BID 2");
                }
            });

            assertThat(established.ask(3, 1, 1_000)).as("not dropped by the rotation").isEqualTo("BID 3");
            assertThat(established.peerSerial()).isEqualTo(first);
            assertThat(scrape(pacer)).containsPattern("pacer_tls_reloads_total\\{listener=\"gateway\"} [1-9]");

            // a broken file is refused: the rotated certificate stays in use (a check that ran
            // between the two renames above may have refused a certificate without its key already)
            final double failures = failures(pacer);
            Files.writeString(cert, "not a certificate");
            TestPacer.eventually(Duration.ofSeconds(10), () -> failures(pacer) > failures);
            try (GatewayClient after = new GatewayClient(pacer.server.gatewayAddress(), certificates.client(null, authority)))
            {
                assertThat(after.ask(4, 1, 1_000)).isEqualTo("BID 4");
            }
        }
    }

    /** Moves a fresh certificate and key over the served ones, each in one rename. */
    private void install(final Path[] certAndKey, final Path cert, final Path key) throws Exception
    {
        final Path newCert = dir.resolve("next.crt");
        Files.copy(certAndKey[0], newCert, StandardCopyOption.REPLACE_EXISTING);
        Files.move(newCert, cert, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
        Files.move(certAndKey[1], key, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
    }

    private static double failures(final TestPacer pacer)
    {
        final java.util.regex.Matcher value = java.util.regex.Pattern
            .compile("pacer_tls_reload_failures_total\\{listener=\"gateway\"} (\\S+)").matcher(scrape(pacer));
        return value.find() ? Double.parseDouble(value.group(1)) : 0;
    }

    private static String scrape(final TestPacer pacer)
    {
        return pacer.server.metrics().scrape(io.pacer.monitoring.PacerMetrics.PROMETHEUS_TEXT);
    }
}
