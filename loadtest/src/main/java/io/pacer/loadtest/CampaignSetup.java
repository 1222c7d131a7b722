package io.pacer.loadtest;

import io.pacer.model.CampaignDefinition;
import io.pacer.model.CampaignJson;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.List;

/** Creates or replaces campaigns through a pacer's admin API before a run. */
public final class CampaignSetup
{
    private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
    private final String adminUrl;
    private final String token;

    /**
     * A setup through this admin API.
     *
     * @param adminUrl e.g. http://127.0.0.1:9401
     * @param token    bearer token, empty for none
     */
    public CampaignSetup(final String adminUrl, final String token)
    {
        this.adminUrl = adminUrl.endsWith("/") ? adminUrl.substring(0, adminUrl.length() - 1) : adminUrl;
        this.token = token;
    }

    /**
     * Campaigns per bulk request: at ~250 bytes of NDJSON each, well under the admin listener's
     * default body limit (1 MiB).
     */
    static final int BATCH = 2_000;

    /**
     * PUTs the definitions in bulk ({@code PUT /campaigns}, NDJSON, {@value #BATCH} per request,
     * each request applied whole or not at all); fails on the first batch the server refuses. A
     * pacer from before bulk updates (405) gets one PUT per campaign instead.
     */
    public void put(final List<CampaignDefinition> definitions) throws IOException, InterruptedException
    {
        for (int from = 0; from < definitions.size(); from += BATCH)
        {
            final List<CampaignDefinition> batch = definitions.subList(from, Math.min(definitions.size(), from + BATCH));
            final StringBuilder ndjson = new StringBuilder(batch.size() * 256);
            batch.forEach(d -> ndjson.append(CampaignJson.definition(d)).append('\n'));
            final HttpRequest.Builder request = HttpRequest.newBuilder(URI.create(adminUrl + "/campaigns"))
                .timeout(Duration.ofSeconds(30))
                .header("Content-Type", "application/x-ndjson")
                .PUT(HttpRequest.BodyPublishers.ofString(ndjson.toString()));
            if (!token.isEmpty())
            {
                request.header("Authorization", "Bearer " + token);
            }
            final HttpResponse<String> response = http.send(request.build(), HttpResponse.BodyHandlers.ofString());
            if (response.statusCode() == 405)
            {
                // a pacer from before bulk updates: one PUT per campaign
                putEach(definitions.subList(from, definitions.size()));
                return;
            }
            if (response.statusCode() != 200)
            {
                throw new IOException("PUT " + batch.size() + " campaign(s) from id " +
                    Long.toUnsignedString(batch.get(0).id()) + ": HTTP " + response.statusCode() + " " + response.body());
            }
        }
    }

    private void putEach(final List<CampaignDefinition> definitions) throws IOException, InterruptedException
    {
        for (final CampaignDefinition d : definitions)
        {
            final HttpRequest.Builder request = HttpRequest.newBuilder(
                    URI.create(adminUrl + "/campaigns/" + Long.toUnsignedString(d.id())))
                .timeout(Duration.ofSeconds(10))
                .PUT(HttpRequest.BodyPublishers.ofString(CampaignJson.definition(d)));
            if (!token.isEmpty())
            {
                request.header("Authorization", "Bearer " + token);
            }
            final HttpResponse<String> response = http.send(request.build(), HttpResponse.BodyHandlers.ofString());
            if (response.statusCode() != 200)
            {
                throw new IOException("PUT campaign " + Long.toUnsignedString(d.id()) + ": HTTP " +
                    response.statusCode() + " " + response.body());
            }
        }
    }

    /** GETs one campaign's state as JSON. */
    public String state(final long campaignId) throws IOException, InterruptedException
    {
        final HttpResponse<String> response = http.send(HttpRequest.newBuilder(
                URI.create(adminUrl + "/campaigns/" + Long.toUnsignedString(campaignId)))
            .timeout(Duration.ofSeconds(10)).GET().build(), HttpResponse.BodyHandlers.ofString());
        if (response.statusCode() != 200)
        {
            throw new IOException("GET campaign " + campaignId + ": HTTP " + response.statusCode());
        }
        return response.body();
    }
}
