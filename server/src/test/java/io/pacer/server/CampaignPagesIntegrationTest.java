package io.pacer.server;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.json.JsonMapper;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.net.http.HttpResponse;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import java.util.stream.IntStream;

import static io.pacer.server.TestPacer.asap;
import static org.assertj.core.api.Assertions.assertThat;

/** {@code GET /campaigns} by pages and {@code PUT /campaigns} in bulk (docs/operations.md), over real HTTP. */
class CampaignPagesIntegrationTest
{
    private static final String TOKEN = "bulk-token";
    /** Above Long.MAX_VALUE: must sort after every small id. */
    private static final String BIG_ID = "9223372036854775813";
    private static TestPacer pacer;
    /** Its own pacer, so that bulk updates do not change the pages above. */
    private static TestPacer bulk;

    @BeforeAll
    static void startPacer() throws Exception
    {
        final List<String> campaigns = new ArrayList<>();
        for (int id = 1; id <= 25; id++)
        {
            campaigns.add(id % 5 == 0 ? asap(id, 1_000, "\"status\":\"PAUSED\"") : asap(id, 1_000));
        }
        campaigns.add(asap(Long.parseUnsignedLong(BIG_ID), 1_000).replace("\"id\":-9223372036854775803", "\"id\":" + BIG_ID));
        pacer = TestPacer.start(Map.of("pacer.admin.token", TOKEN, "pacer.pipeline.shards", 4),
            campaigns.toArray(new String[0]));
        bulk = TestPacer.start(Map.of("pacer.admin.token", TOKEN, "pacer.pipeline.shards", 4), asap(3, 1_000));
    }

    @AfterAll
    static void stopPacer() throws Exception
    {
        pacer.close();
        bulk.close();
    }

    @Test
    void shouldPageThroughEveryCampaignOnceInUnsignedIdOrder() throws Exception
    {
        final List<String> seen = new ArrayList<>();
        final List<Integer> pageSizes = new ArrayList<>();
        String after = null;
        do
        {
            final JsonNode page = page("/campaigns?limit=10" + (after == null ? "" : "&after=" + after));
            page.get("campaigns").forEach(c -> seen.add(c.get("id").asText()));
            pageSizes.add(page.get("campaigns").size());
            after = page.get("next").isNull() ? null : page.get("next").asText();
        }
        while (after != null);

        final List<String> expected = IntStream.rangeClosed(1, 25).mapToObj(Integer::toString).collect(Collectors.toList());
        expected.add(BIG_ID);
        assertThat(seen).containsExactlyElementsOf(expected);
        assertThat(pageSizes).containsExactly(10, 10, 6);
    }

    @Test
    void shouldStartAPageAfterAnIdThatIsNotACampaign() throws Exception
    {
        final JsonNode page = page("/campaigns?after=0&limit=3");
        assertThat(page.get("campaigns").findValuesAsText("id")).containsExactly("1", "2", "3");
        assertThat(page.get("next").asText()).isEqualTo("3");
        assertThat(page("/campaigns?after=" + BIG_ID).get("campaigns")).isEmpty();
    }

    @Test
    void shouldFilterByStatusAndPacing() throws Exception
    {
        final JsonNode paused = page("/campaigns?status=paused");
        assertThat(paused.get("campaigns").findValuesAsText("id")).containsExactly("5", "10", "15", "20", "25");
        assertThat(paused.get("next").isNull()).isTrue();
        assertThat(page("/campaigns?pacing=EVEN&limit=1000").get("campaigns")).isEmpty();
        assertThat(page("/campaigns?status=ACTIVE&pacing=ASAP&limit=2").get("next").asText()).isEqualTo("2");
    }

    @Test
    void shouldRefuseABadQueryNamingTheParameter() throws Exception
    {
        assertBadRequest("/campaigns?after=abc", "after:");
        assertBadRequest("/campaigns?limit=0", "limit: must be an integer from 1 to 1000");
        assertBadRequest("/campaigns?limit=1001", "limit:");
        assertBadRequest("/campaigns?status=sleeping", "status: must be one of [ACTIVE, PAUSED]");
        assertBadRequest("/campaigns?sort=desc", "sort: unknown parameter");
        assertBadRequest("/campaigns?limit=1&limit=2", "limit: must be given once");
    }

    @Test
    void shouldApplyABulkUpdateAsOneBatchThatAGetThenSees() throws Exception
    {
        final String body = "[" + asap(101, 11) + "," + asap(102, 12) + "," + asap(3, 33_000) + "]";
        final HttpResponse<String> applied = bulk.put("/campaigns", body);
        assertThat(applied.statusCode()).isEqualTo(200);
        assertThat(applied.body()).isEqualTo("{\"applied\":3}");
        assertThat(bulk.campaign(101).get("budgetMicros").asLong()).isEqualTo(11);
        assertThat(bulk.campaign(102).get("budgetMicros").asLong()).isEqualTo(12);
        assertThat(bulk.campaign(3).get("budgetMicros").asLong()).isEqualTo(33_000);
    }

    @Test
    void shouldAcceptABulkUpdateAsNdjson() throws Exception
    {
        final HttpResponse<String> applied = bulk.put("/campaigns", asap(201, 21) + "\n\n" + asap(202, 22) + "\n");
        assertThat(applied.statusCode()).isEqualTo(200);
        assertThat(applied.body()).isEqualTo("{\"applied\":2}");
        assertThat(bulk.campaign(202).get("budgetMicros").asLong()).isEqualTo(22);
    }

    @Test
    void shouldRejectABulkUpdateWithBadItemsNamingEachAndApplyNothing() throws Exception
    {
        final String body = "[" + asap(301, 1) + "," + asap(302, 0) + "," + asap(301, 5) + ",{\"budgetMicros\":1}]";
        final HttpResponse<String> refused = bulk.put("/campaigns", body);
        assertThat(refused.statusCode()).isEqualTo(400);
        final JsonNode answer = JsonMapper.builder().build().readTree(refused.body());
        assertThat(answer.get("error").asText()).isEqualTo("3 of 4 campaign(s) rejected; nothing applied");
        assertThat(answer.get("errors").toString()).isEqualTo("[" +
            "{\"item\":1,\"id\":\"302\",\"field\":\"budgetMicros\",\"error\":\"must be > 0, was 0\"}," +
            "{\"item\":2,\"id\":\"301\",\"field\":\"id\",\"error\":\"duplicate id 301 in this batch\"}," +
            "{\"item\":3,\"id\":null,\"field\":\"id\",\"error\":\"is required\"}]");
        assertThat(bulk.get("/campaigns/301").statusCode()).as("the valid item was not applied either").isEqualTo(404);
    }

    @Test
    void shouldRequireTheTokenForABulkUpdate() throws Exception
    {
        assertThat(bulk.put("/campaigns", "[" + asap(401, 1) + "]", null).statusCode()).isEqualTo(401);
        assertThat(bulk.get("/campaigns/401").statusCode()).isEqualTo(404);
    }

    private static JsonNode page(final String path) throws Exception
    {
        final HttpResponse<String> response = pacer.get(path);
        assertThat(response.statusCode()).as(path + ": " + response.body()).isEqualTo(200);
        return JsonMapper.builder().build().readTree(response.body());
    }

    private static void assertBadRequest(final String path, final String message) throws Exception
    {
        final HttpResponse<String> response = pacer.get(path);
        assertThat(response.statusCode()).as(path).isEqualTo(400);
        assertThat(response.body()).as(path).contains(message);
    }
}
