package io.pacer.server;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.json.JsonMapper;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;

import java.io.File;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.TimeUnit;

import static io.pacer.server.TestPacer.asap;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * A real Prometheus (Debian's package) started on loopback with conf/prometheus.yml, pointed at a
 * test pacer under traffic, and read back through Prometheus's HTTP query API.
 */
class PrometheusServerIntegrationTest
{
    private static final Path REPO = Path.of("..").toAbsolutePath().normalize();

    @Test
    void shouldLetARealPrometheusScrapeANonZeroDecisionRate() throws Exception
    {
        final File prometheus = new File("/usr/bin/prometheus");
        Assumptions.assumeTrue(prometheus.canExecute(),
            "SKIPPED: prometheus not installed (apt-get install -y prometheus; .ci/run installs it)");
        try (TestPacer pacer = TestPacer.start(asap(1, 1_000_000_000_000L)))
        {
            final Path dir = Files.createTempDirectory("prometheus");
            final String config = Files.readString(REPO.resolve("conf/prometheus.yml"))
                .replace("127.0.0.1:9401", "127.0.0.1:" + pacer.server.adminAddress().getPort())
                .replace("scrape_interval: 5s", "scrape_interval: 1s");
            Files.writeString(dir.resolve("prometheus.yml"), config);
            Files.copy(REPO.resolve("conf/pacer-alerts.yml"), dir.resolve("pacer-alerts.yml"));
            final int port = PacerProcess.freePort();
            final Process server = new ProcessBuilder(prometheus.getPath(),
                "--config.file=" + dir.resolve("prometheus.yml"), "--storage.tsdb.path=" + dir.resolve("data"),
                "--web.listen-address=127.0.0.1:" + port)
                .redirectErrorStream(true).redirectOutput(dir.resolve("prometheus.log").toFile()).start();
            try
            {
                final long deadline = System.nanoTime() + Duration.ofSeconds(40).toNanos();
                double rate = 0;
                long requestId = 0;
                try (GatewayClient client = pacer.client())
                {
                    while (rate <= 0 && System.nanoTime() < deadline)
                    {
                        for (int i = 0; i < 200; i++)
                        {
                            client.bid(++requestId, 1, 1_000);
                        }
                        client.send().read(200);
                        Thread.sleep(100);
                        rate = query(port, "sum(rate(pacer_decisions_total{decision=\"bid\"}[5s]))");
                    }
                }
                assertThat(rate).as("rate of BIDs seen by Prometheus; log in " + dir).isGreaterThan(0);
                assertThat(query(port, "up{job=\"pacer\"}")).isEqualTo(1);
                final String rules = HttpClient.newHttpClient().send(HttpRequest.newBuilder(
                    URI.create("http://127.0.0.1:" + port + "/api/v1/rules")).GET().build(),
                    HttpResponse.BodyHandlers.ofString()).body();
                assertThat(rules).as("conf/pacer-alerts.yml loaded").contains("PacerJournalFailed", "PacerShedding");
            }
            finally
            {
                server.destroy();
                server.waitFor(10, TimeUnit.SECONDS);
            }
        }
    }

    @Test
    void shouldShipAlertRulesThatPromtoolAcceptsAndWhoseUnitTestsPass() throws Exception
    {
        final File promtool = new File("/usr/bin/promtool");
        Assumptions.assumeTrue(promtool.canExecute(),
            "SKIPPED: promtool not installed (apt-get install -y prometheus; .ci/run installs it)");
        for (final String[] command : new String[][] {
            {promtool.getPath(), "check", "rules", "pacer-alerts.yml"},
            {promtool.getPath(), "test", "rules", "pacer-alerts.test.yml"}})
        {
            final Process process = new ProcessBuilder(command).directory(REPO.resolve("conf").toFile())
                .redirectErrorStream(true).start();
            final String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            assertThat(process.waitFor()).as(String.join(" ", command) + ":\n" + output).isZero();
        }
    }

    private static double query(final int port, final String promql) throws Exception
    {
        final HttpResponse<String> response;
        try
        {
            response = HttpClient.newHttpClient().send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port +
                "/api/v1/query?query=" + URLEncoder.encode(promql, StandardCharsets.UTF_8))).GET().build(),
                HttpResponse.BodyHandlers.ofString());
        }
        catch (final java.io.IOException notUpYet)
        {
            return 0;
        }
        if (response.statusCode() != 200)
        {
            // Prometheus answers 503 in plain text while it starts
            return 0;
        }
        final JsonNode result = JsonMapper.builder().build().readTree(response.body()).path("data").path("result");
        return result.isArray() && result.size() > 0 ? result.get(0).path("value").get(1).asDouble() : 0;
    }
}
