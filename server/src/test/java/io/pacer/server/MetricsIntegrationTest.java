package io.pacer.server;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.io.File;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static io.pacer.server.TestPacer.asap;
import static org.assertj.core.api.Assertions.assertThat;

/** GET /metrics on a real server after real traffic: exact counter deltas, formats, promtool. */
class MetricsIntegrationTest
{
    private static final Pattern SAMPLE = Pattern.compile("^([a-zA-Z_:][a-zA-Z0-9_:]*(?:\\{[^}]*})?) (\\S+)$");
    private static TestPacer pacer;

    @BeforeAll
    static void startPacer() throws Exception
    {
        pacer = TestPacer.start(asap(1, 1_000_000_000), asap(2, 10));
    }

    @AfterAll
    static void stopPacer() throws Exception
    {
        pacer.close();
    }

    static Map<String, Double> scrape(final TestPacer pacer) throws Exception
    {
        final HttpResponse<String> response = pacer.get("/metrics");
        assertThat(response.statusCode()).isEqualTo(200);
        final Map<String, Double> samples = new HashMap<>();
        for (final String line : response.body().split("\n"))
        {
            final Matcher m = SAMPLE.matcher(line);
            if (!line.startsWith("#") && m.matches())
            {
                samples.put(m.group(1), Double.parseDouble(m.group(2)));
            }
        }
        return samples;
    }

    private static double delta(final Map<String, Double> before, final Map<String, Double> after, final String series)
    {
        assertThat(after).containsKey(series);
        return after.get(series) - before.getOrDefault(series, 0.0);
    }

    @Test
    void shouldMoveDecisionCountersAndLatencyHistogramByExactlyWhatWasSent() throws Exception
    {
        final Map<String, Double> before = scrape(pacer);
        try (GatewayClient client = pacer.client())
        {
            for (int i = 0; i < 30; i++)
            {
                client.bid(i, 1, 1_000);
            }
            for (int i = 30; i < 37; i++)
            {
                client.bid(i, 999, 1_000);
            }
            client.bid(37, 1, 0).bid(38, 2, 10_000).bid(39, 2, 1);
            assertThat(client.send().read(40)).hasSize(40);
            client.win(0, 1, 500).loss(1, 1).send();
        }
        Thread.sleep(200);
        final Map<String, Double> after = scrape(pacer);
        assertThat(delta(before, after, "pacer_decisions_total{decision=\"bid\",reason=\"none\"}")).isEqualTo(31);
        assertThat(delta(before, after, "pacer_decisions_total{decision=\"no_bid\",reason=\"unknown_campaign\"}")).isEqualTo(7);
        assertThat(delta(before, after, "pacer_decisions_total{decision=\"no_bid\",reason=\"invalid_request\"}")).isEqualTo(1);
        assertThat(delta(before, after, "pacer_decisions_total{decision=\"no_bid\",reason=\"budget_exhausted\"}")).isEqualTo(1);
        assertThat(delta(before, after, "pacer_decisions_total{decision=\"no_bid\",reason=\"overloaded\"}")).isZero();
        assertThat(delta(before, after, "pacer_requests_total{type=\"bid_request\"}")).isEqualTo(40);
        assertThat(delta(before, after, "pacer_requests_total{type=\"win_notice\"}")).isEqualTo(1);
        assertThat(delta(before, after, "pacer_requests_total{type=\"loss_notice\"}")).isEqualTo(1);
        assertThat(delta(before, after, "pacer_decision_latency_seconds_count")).isEqualTo(40);
        assertThat(delta(before, after, "pacer_decision_latency_seconds_bucket{le=\"+Inf\"}")).isEqualTo(40);
        assertThat(delta(before, after, "pacer_wins_matched_total")).isEqualTo(1);
        assertThat(delta(before, after, "pacer_losses_total")).isEqualTo(1);
        assertThat(delta(before, after, "pacer_spend_booked_micros_total")).isEqualTo(0);
        // 31 BIDs, less the one won and the one lost
        assertThat(after.get("pacer_reservations_open")).isEqualTo(29);
        assertThat(after.get("pacer_campaigns_active")).isEqualTo(2);
        assertThat(after).containsKeys("pacer_ring_remaining_slots", "pacer_connections_accepted_total",
            "pacer_gateway_received_bytes_total", "pacer_handler_exceptions_total",
            "pacer_campaigns_file_reloads_total{result=\"ok\"}", "pacer_shard_batches_total{shard=\"0\"}");
    }

    @Test
    void shouldExposeJvmMetricsAndBuildInfoAndNoCampaignLabels() throws Exception
    {
        final String body = pacer.get("/metrics").body();
        assertThat(body).contains("pacer_build_info{", "jvm_memory_used_bytes", "jvm_gc_", "jvm_threads_live_threads",
            "jvm_classes_loaded_classes", "process_cpu_usage", "process_uptime_seconds");
        assertThat(body).doesNotContain("campaign=", "campaign_id=", "campaignId=");
        assertThat(body).contains("# TYPE pacer_decision_latency_seconds histogram");
    }

    @Test
    void shouldAnswerOpenMetricsWhenAskedByAccept() throws Exception
    {
        final HttpResponse<String> response = HttpClient.newHttpClient().send(HttpRequest.newBuilder(
                URI.create(pacer.adminUrl("/metrics")))
            .header("Accept", "application/openmetrics-text; version=1.0.0,text/plain;q=0.5").GET().build(),
            HttpResponse.BodyHandlers.ofString());
        assertThat(response.headers().firstValue("content-type").orElseThrow()).startsWith("application/openmetrics-text");
        assertThat(response.body()).endsWith("# EOF\n");
        assertThat(pacer.get("/metrics").headers().firstValue("content-type").orElseThrow()).startsWith("text/plain");
    }

    @Test
    void shouldAnswer404WhenMetricsAreDisabled() throws Exception
    {
        try (TestPacer quiet = TestPacer.start(java.util.Map.of("pacer.metrics.enabled", false), asap(1, 100)))
        {
            assertThat(quiet.get("/metrics").statusCode()).isEqualTo(404);
            try (GatewayClient client = quiet.client())
            {
                assertThat(client.ask(1, 1, 1_000)).isEqualTo("BID 1");
            }
        }
    }

    @Test
    void shouldPassPromtoolCheckMetricsOnALiveScrape() throws Exception
    {
        final File promtool = new File("/usr/bin/promtool");
        Assumptions.assumeTrue(promtool.canExecute(),
            "SKIPPED: promtool not installed (apt-get install -y prometheus; .ci/run installs it)");
        final Path scrape = Files.createTempFile("scrape", ".txt");
        Files.writeString(scrape, pacer.get("/metrics").body());
        final Process check = new ProcessBuilder(promtool.getPath(), "check", "metrics")
            .redirectInput(scrape.toFile()).redirectErrorStream(true).start();
        final String output = new String(check.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(check.waitFor(30, TimeUnit.SECONDS)).isTrue();
        assertThat(check.exitValue()).as(output).isZero();
        Files.delete(scrape);
    }

    @Test
    void shouldServeEverySeriesTheDashboardAndTheAlertRulesReadFrom() throws Exception
    {
        final java.util.Set<String> served = new java.util.HashSet<>();
        for (final String series : scrape(pacer).keySet())
        {
            served.add(series.replaceAll("\\{.*", "").replaceAll("_(bucket|count|sum)$", ""));
        }
        final java.nio.file.Path repo = java.nio.file.Path.of("..").toAbsolutePath().normalize();
        final Pattern name = Pattern.compile("\\b(pacer_[a-z_]+)");
        for (final String file : new String[] {"monitoring/grafana/pacer-dashboard.json", "conf/pacer-alerts.yml"})
        {
            final Matcher m = name.matcher(java.nio.file.Files.readString(repo.resolve(file)));
            int found = 0;
            while (m.find())
            {
                found++;
                assertThat(served).as("%s reads %s", file, m.group(1))
                    .contains(m.group(1).replaceAll("_(bucket|count|sum)$", ""));
            }
            assertThat(found).as(file).isPositive();
        }
    }
}
