package io.pacer.server;

import io.pacer.server.config.PacerConfig;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.json.JsonMapper;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.Callable;

/** A real pacer on ephemeral loopback ports, with its own campaigns file in a temp directory. */
final class TestPacer implements AutoCloseable
{
    static final String FAR_FLIGHT = "\"start\":\"2026-01-01T00:00:00Z\",\"end\":\"2036-01-01T00:00:00Z\"";

    final Path home;
    final Path campaignsFile;
    final PacerServer server;
    private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
    private final String token;

    private TestPacer(final Path home, final Map<String, Object> overrides) throws Exception
    {
        this.home = home;
        this.campaignsFile = home.resolve("campaigns.json");
        this.token = (String)overrides.getOrDefault("pacer.admin.token", "");
        final Map<String, Object> all = new HashMap<>();
        all.put("pacer.home", home.toString());
        all.put("pacer.gateway.port", 0);
        all.put("pacer.admin.port", 0);
        all.put("pacer.campaigns.file", campaignsFile.toString());
        all.put("pacer.campaigns.poll-interval", "50ms");
        all.put("pacer.pipeline.shards", 2);
        all.put("pacer.pipeline.ring-size", 4096);
        all.put("pacer.pipeline.tick-interval", "5ms");
        // a cold JVM on a shared 2-core host makes the first batches wait several ms: tests that
        // assert exact decisions must not see them shed (the overload tests set a deadline)
        all.put("pacer.pipeline.queue-deadline", "0s");
        all.putAll(overrides);
        this.server = new PacerServer(PacerConfig.load(null, all)).start();
    }

    /** Starts a pacer whose campaigns file holds {@code campaigns} (JSON objects). */
    static TestPacer start(final Map<String, Object> overrides, final String... campaigns) throws Exception
    {
        final Path home = Files.createTempDirectory("pacer-test");
        writeCampaigns(home.resolve("campaigns.json"), campaigns);
        try
        {
            return new TestPacer(home, overrides);
        }
        catch (final Exception | Error ex)
        {
            deleteTree(home);
            throw ex;
        }
    }

    /** Starts a pacer again in an existing home: same campaigns file, same journal. */
    static TestPacer restart(final Path home, final Map<String, Object> overrides) throws Exception
    {
        return new TestPacer(home, overrides);
    }

    Path journalDir()
    {
        return home.resolve("data/journal");
    }

    /** Stops the server, keeping its files (journal, campaigns) for a restart. */
    void stopKeepingFiles()
    {
        server.close();
    }

    static TestPacer start(final String... campaigns) throws Exception
    {
        return start(Map.of(), campaigns);
    }

    static void writeCampaigns(final Path file, final String... campaigns) throws IOException
    {
        final Path temp = file.resolveSibling(file.getFileName() + ".tmp");
        Files.writeString(temp, "{\"campaigns\":[" + String.join(",", campaigns) + "]}");
        Files.move(temp, file, java.nio.file.StandardCopyOption.REPLACE_EXISTING, java.nio.file.StandardCopyOption.ATOMIC_MOVE);
    }

    /** An ASAP campaign over a ten-year flight. */
    static String asap(final long id, final long budgetMicros, final String... extra)
    {
        return "{\"id\":" + id + ",\"budgetMicros\":" + budgetMicros + "," + FAR_FLIGHT + ",\"pacing\":\"ASAP\"" +
            (extra.length == 0 ? "" : "," + String.join(",", extra)) + "}";
    }

    GatewayClient client() throws IOException
    {
        return new GatewayClient(server.gatewayAddress());
    }

    String adminUrl(final String path)
    {
        return "http://127.0.0.1:" + server.adminAddress().getPort() + path;
    }

    HttpResponse<String> get(final String path) throws IOException, InterruptedException
    {
        return get(path, null);
    }

    /** A GET with {@code Authorization: authorization}, if not null. */
    HttpResponse<String> get(final String path, final String authorization) throws IOException, InterruptedException
    {
        final HttpRequest.Builder request = HttpRequest.newBuilder(URI.create(adminUrl(path))).timeout(Duration.ofSeconds(10));
        if (authorization != null)
        {
            request.header("Authorization", authorization);
        }
        return http.send(request.GET().build(), HttpResponse.BodyHandlers.ofString());
    }

    /** A campaign's definition and state from the admin API. */
    JsonNode campaign(final long id) throws IOException, InterruptedException
    {
        return JsonMapper.builder().build().readTree(get("/campaigns/" + Long.toUnsignedString(id)).body());
    }

    /** Polls {@code condition} every 20 ms until it holds; fails after {@code timeout}. */
    static void eventually(final Duration timeout, final Callable<Boolean> condition) throws Exception
    {
        final long deadline = System.nanoTime() + timeout.toNanos();
        while (!condition.call())
        {
            if (System.nanoTime() > deadline)
            {
                throw new AssertionError("condition not met within " + timeout);
            }
            Thread.sleep(20);
        }
    }

    HttpResponse<String> put(final String path, final String body) throws IOException, InterruptedException
    {
        return put(path, body, token.isEmpty() ? null : "Bearer " + token);
    }

    HttpResponse<String> put(final String path, final String body, final String authorization)
        throws IOException, InterruptedException
    {
        final HttpRequest.Builder request = HttpRequest.newBuilder(URI.create(adminUrl(path)))
            .timeout(Duration.ofSeconds(10))
            .PUT(HttpRequest.BodyPublishers.ofString(body));
        if (authorization != null)
        {
            request.header("Authorization", authorization);
        }
        return http.send(request.build(), HttpResponse.BodyHandlers.ofString());
    }

    @Override
    public void close() throws IOException
    {
        server.close();
        deleteTree(home);
    }

    /** Deletes a directory and everything in it, if it is there. */
    static void deleteTree(final Path dir) throws IOException
    {
        if (!Files.exists(dir))
        {
            return;
        }
        try (var files = Files.walk(dir))
        {
            files.sorted(java.util.Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
        }
    }
}
