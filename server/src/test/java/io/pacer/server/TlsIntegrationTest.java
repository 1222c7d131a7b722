package io.pacer.server;

import io.pacer.server.config.InvalidConfigException;
import io.pacer.server.config.PacerConfig;
import io.netty.handler.ssl.SslContextBuilder;
import io.pacer.loadtest.LoadGenerator;
import io.pacer.loadtest.LoadOptions;
import io.pacer.loadtest.LoadReport;
import org.junit.jupiter.api.Test;

import javax.net.ssl.SSLContext;
import javax.net.ssl.TrustManagerFactory;
import java.io.InputStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyStore;
import java.security.cert.CertificateFactory;
import java.time.Duration;
import java.util.Map;

import static io.pacer.server.TestPacer.asap;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** Optional TLS on the gateway and admin listeners, from PEM files, on a real server. */
class TlsIntegrationTest
{
    private static final Path CERT = resource("tls/localhost.crt");
    /** The key, copied where only its owner may read it (the pacer refuses a key others can read). */
    private static final Path KEY = privateCopy(resource("tls/localhost.key"));
    private static final Map<String, Object> TLS = Map.of(
        "pacer.gateway.tls.cert-file", CERT.toString(),
        "pacer.gateway.tls.key-file", KEY.toString(),
        "pacer.admin.tls.cert-file", CERT.toString(),
        "pacer.admin.tls.key-file", KEY.toString());

    @Test
    void shouldAnswerBidsOverTlsAndRefusePlainText() throws Exception
    {
        final Map<String, Object> gatewayOnly = Map.of(
            "pacer.gateway.tls.cert-file", CERT.toString(), "pacer.gateway.tls.key-file", KEY.toString());
        try (TestPacer pacer = TestPacer.start(gatewayOnly, asap(1, 1_000_000));
             GatewayClient client = new GatewayClient(pacer.server.gatewayAddress(), trusting(CERT)))
        {
            assertThat(client.ask(7, 1, 2_000)).isEqualTo("BID 7");
            client.win(7, 1, 1_000).loss(8, 1).send();
            assertThat(client.ask(9, 2, 2_000)).isEqualTo("NO_BID 9 UNKNOWN_CAMPAIGN");
            assertThat(pacer.get("/campaigns/1").body()).contains("\"spentMicros\":1,", "\"wins\":1");

            try (GatewayClient plain = pacer.client())
            {
                plain.bid(10, 1, 2_000).send();
                plain.timeoutMillis(5_000);
                // not a TLS record: the handshake fails and the server closes, with no answer
                assertThat(plain.isClosedByServer()).isTrue();
            }
        }
    }

    @Test
    void shouldCarryTheLoadGeneratorsTrafficOverTls() throws Exception
    {
        final Map<String, Object> gatewayOnly = Map.of(
            "pacer.gateway.tls.cert-file", CERT.toString(), "pacer.gateway.tls.key-file", KEY.toString());
        try (TestPacer pacer = TestPacer.start(gatewayOnly, asap(1, 1_000_000_000_000L)))
        {
            final LoadReport report = new LoadGenerator(LoadOptions.builder()
                .port(pacer.server.gatewayAddress().getPort()).connections(2).inFlight(8)
                .duration(Duration.ofSeconds(1)).warmup(Duration.ZERO).maxRequests(20_000)
                .tls(SslContextBuilder.forClient().trustManager(CERT.toFile()).build())
                .build()).run();
            assertThat(report.clean()).as(report.toText()).isTrue();
            assertThat(report.answers()).isPositive();
        }
    }

    @Test
    void shouldServeTheAdminApiOverHttps() throws Exception
    {
        try (TestPacer pacer = TestPacer.start(TLS, asap(1, 1_000_000)))
        {
            final HttpClient https = HttpClient.newBuilder().sslContext(trusting(CERT)).build();
            final HttpResponse<String> health = https.send(HttpRequest.newBuilder(
                    URI.create("https://localhost:" + pacer.server.adminAddress().getPort() + "/health"))
                .timeout(Duration.ofSeconds(10)).build(), HttpResponse.BodyHandlers.ofString());
            assertThat(health.statusCode()).isEqualTo(200);
            assertThatThrownBy(() -> pacer.get("/health")).as("plain HTTP to the HTTPS port").isInstanceOf(Exception.class);
        }
    }

    @Test
    void shouldRefuseToStartWithACertificateButNoKey()
    {
        assertThatThrownBy(() -> PacerConfig.load(null, Map.of("pacer.gateway.tls.cert-file", CERT.toString())))
            .isInstanceOf(InvalidConfigException.class)
            .hasMessageContaining("pacer.gateway.tls.key-file");
    }

    @Test
    void shouldRefuseToStartWithAKeyThatIsNotAKey()
    {
        final PacerConfig config = PacerConfig.load(null, Map.of("pacer.gateway.port", 0, "pacer.admin.port", 0,
            "pacer.journal.enabled", false, "pacer.campaigns.file", "",
            "pacer.admin.tls.cert-file", CERT.toString(), "pacer.admin.tls.key-file", privateCopy(CERT).toString()));
        assertThatThrownBy(() -> new PacerServer(config).start())
            .isInstanceOf(InvalidConfigException.class)
            .hasMessageContaining("pacer.admin.tls.cert-file");
    }

    private static SSLContext trusting(final Path cert) throws Exception
    {
        final KeyStore trust = KeyStore.getInstance(KeyStore.getDefaultType());
        trust.load(null, null);
        try (InputStream in = Files.newInputStream(cert))
        {
            trust.setCertificateEntry("pacer", CertificateFactory.getInstance("X.509").generateCertificate(in));
        }
        final TrustManagerFactory factory = TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
        factory.init(trust);
        final SSLContext context = SSLContext.getInstance("TLS");
        context.init(null, factory.getTrustManagers(), null);
        return context;
    }

    private static Path privateCopy(final Path file)
    {
        try
        {
            final Path copy = Files.createTempFile("pacer-test-key", ".pem",
                java.nio.file.attribute.PosixFilePermissions.asFileAttribute(
                    java.nio.file.attribute.PosixFilePermissions.fromString("rw-------")));
            Files.write(copy, Files.readAllBytes(file));
            copy.toFile().deleteOnExit();
            return copy;
        }
        catch (final java.io.IOException ex)
        {
            throw new IllegalStateException(ex);
        }
    }

    private static Path resource(final String name)
    {
        try
        {
            return Path.of(TlsIntegrationTest.class.getClassLoader().getResource(name).toURI());
        }
        catch (final Exception ex)
        {
            throw new IllegalStateException(ex);
        }
    }
}
