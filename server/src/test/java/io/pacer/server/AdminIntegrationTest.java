package io.pacer.server;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.net.http.HttpResponse;
import java.util.Map;

import static io.pacer.server.TestPacer.asap;
import static org.assertj.core.api.Assertions.assertThat;

/** The admin HTTP API of docs/operations.md, over real HTTP, with a token configured. */
class AdminIntegrationTest
{
    private static final String TOKEN = "s3cret-token";
    private static TestPacer pacer;

    @BeforeAll
    static void startPacer() throws Exception
    {
        pacer = TestPacer.start(Map.of("pacer.admin.token", TOKEN), asap(42, 5_000_000_000L), asap(7, 1_000));
    }

    @AfterAll
    static void stopPacer() throws Exception
    {
        pacer.close();
    }

    @Test
    void shouldReportHealthUpOnceTheGatewayIsOpen() throws Exception
    {
        final HttpResponse<String> health = pacer.get("/health");
        assertThat(health.statusCode()).isEqualTo(200);
        assertThat(health.body()).isEqualTo("{\"status\":\"UP\"}");
    }

    @Test
    void shouldListCampaignsOrderedById() throws Exception
    {
        final HttpResponse<String> all = pacer.get("/campaigns");
        assertThat(all.statusCode()).isEqualTo(200);
        assertThat(all.headers().firstValue("content-type")).hasValue("application/json");
        assertThat(all.body()).startsWith("{\"campaigns\":[{\"id\":7,").contains("{\"id\":42,").endsWith("],\"next\":null}");
    }

    @Test
    void shouldShowOneCampaignsDefinitionAndState() throws Exception
    {
        final HttpResponse<String> one = pacer.get("/campaigns/42");
        assertThat(one.statusCode()).isEqualTo(200);
        assertThat(one.body()).contains("\"id\":42", "\"budgetMicros\":5000000000", "\"spentMicros\":0",
            "\"reservedMicros\":0", "\"todaySpentMicros\":0", "\"bids\":0", "\"wins\":0", "\"pacing\":\"ASAP\"");
    }

    @Test
    void shouldAnswer404ForUnknownCampaignAndPath() throws Exception
    {
        assertThat(pacer.get("/campaigns/12345").statusCode()).isEqualTo(404);
        assertThat(pacer.get("/nope").statusCode()).isEqualTo(404);
    }

    @Test
    void shouldRejectANonNumericId() throws Exception
    {
        final HttpResponse<String> response = pacer.get("/campaigns/abc");
        assertThat(response.statusCode()).isEqualTo(400);
        assertThat(response.body()).contains("\"error\":\"id:");
    }

    @Test
    void shouldCreateACampaignThatAGetThenSees() throws Exception
    {
        final HttpResponse<String> created = pacer.put("/campaigns/500", asap(500, 777));
        assertThat(created.statusCode()).isEqualTo(200);
        assertThat(created.body()).contains("\"id\":500", "\"budgetMicros\":777", "\"spentMicros\":0");
        assertThat(pacer.get("/campaigns/500").body()).contains("\"budgetMicros\":777");
    }

    @Test
    void shouldKeepSpentAndReservedAcrossARedefinition() throws Exception
    {
        pacer.put("/campaigns/501", asap(501, 1_000));
        try (GatewayClient client = pacer.client())
        {
            assertThat(client.ask(1, 501, 100_000)).isEqualTo("BID 1");
            client.win(1, 501, 60_000).bid(2, 501, 100_000).send();
            assertThat(client.read(1)).containsExactly("BID 2");
        }
        final HttpResponse<String> redefined = pacer.put("/campaigns/501", asap(501, 2_000));
        assertThat(redefined.body()).contains("\"budgetMicros\":2000", "\"spentMicros\":60", "\"reservedMicros\":100");
    }

    @Test
    void shouldRejectAnInvalidDefinitionNamingTheFieldAndApplyNothing() throws Exception
    {
        final HttpResponse<String> rejected = pacer.put("/campaigns/7", asap(7, -5));
        assertThat(rejected.statusCode()).isEqualTo(400);
        assertThat(rejected.body()).isEqualTo("{\"error\":\"budgetMicros: must be > 0, was -5\"}");
        assertThat(pacer.get("/campaigns/7").body()).contains("\"budgetMicros\":1000");
    }

    @Test
    void shouldRejectUnknownFieldsWrongTypesAndBrokenJson() throws Exception
    {
        assertThat(pacer.put("/campaigns/7", asap(7, 1_000, "\"colour\":\"red\"")).body()).contains("colour: unknown field");
        assertThat(pacer.put("/campaigns/7", asap(7, 1_000).replace("1000", "\"1000\"")).body())
            .contains("budgetMicros: must be an integer");
        assertThat(pacer.put("/campaigns/7", "{\"id\":7,").statusCode()).isEqualTo(400);
    }

    @Test
    void shouldRejectABodyWhoseIdDiffersFromThePath() throws Exception
    {
        final HttpResponse<String> rejected = pacer.put("/campaigns/8", asap(9, 1_000));
        assertThat(rejected.statusCode()).isEqualTo(400);
        assertThat(rejected.body()).contains("id: body id 9 differs from the path's 8");
    }

    @Test
    void shouldRequireTheBearerTokenForMutationsAndCountRefusals() throws Exception
    {
        final long before = pacer.server.auth().rejections();
        final HttpResponse<String> missing = pacer.put("/campaigns/600", asap(600, 1), null);
        assertThat(missing.statusCode()).isEqualTo(401);
        assertThat(missing.headers().firstValue("www-authenticate")).isPresent();
        assertThat(pacer.put("/campaigns/600", asap(600, 1), "Bearer wrong").statusCode()).isEqualTo(401);
        assertThat(pacer.put("/campaigns/600", asap(600, 1), "Basic " + TOKEN).statusCode()).isEqualTo(401);
        assertThat(pacer.server.auth().rejections() - before).isEqualTo(3);
        assertThat(pacer.get("/campaigns/600").statusCode()).isEqualTo(404);
        assertThat(pacer.put("/campaigns/600", asap(600, 1), "Bearer " + TOKEN).statusCode()).isEqualTo(200);
    }

    @Test
    void shouldRefuseABodyOverTheLimitAndApplyNothing() throws Exception
    {
        try (TestPacer small = TestPacer.start(Map.of("pacer.admin.max-body-bytes", 1024)))
        {
            // a valid definition, padded with whitespace past the limit
            final String padded = asap(700, 1) + " ".repeat(2_000);
            final java.net.http.HttpResponse<String> refused = small.put("/campaigns/700", padded);
            assertThat(refused.statusCode()).isEqualTo(413);
            assertThat(refused.body()).isEqualTo("{\"error\":\"request body larger than pacer.admin.max-body-bytes (1024 bytes)\"}");
            assertThat(small.get("/campaigns/700").statusCode()).isEqualTo(404);
            assertThat(small.put("/campaigns/700", asap(700, 1)).statusCode()).isEqualTo(200);
        }
    }

    @Test
    void shouldAnswerAnAnnouncedOversizedBodyWithTheSameJsonBeforeItIsSentAndKeepTheConnection() throws Exception
    {
        try (TestPacer small = TestPacer.start(Map.of("pacer.admin.max-body-bytes", 1024));
             java.net.Socket socket = new java.net.Socket("127.0.0.1", small.server.adminAddress().getPort()))
        {
            socket.setSoTimeout(10_000);
            final java.io.OutputStream out = socket.getOutputStream();
            final java.io.BufferedReader in = new java.io.BufferedReader(
                new java.io.InputStreamReader(socket.getInputStream(), java.nio.charset.StandardCharsets.ISO_8859_1));
            out.write(("PUT /campaigns/700 HTTP/1.1\r\nHost: pacer\r\nContent-Type: application/json\r\n" +
                "Content-Length: 5000\r\nExpect: 100-continue\r\n\r\n").getBytes(java.nio.charset.StandardCharsets.ISO_8859_1));
            out.flush();
            assertThat(readResponse(in)).startsWith("HTTP/1.1 413 ")
                .endsWith("{\"error\":\"request body larger than pacer.admin.max-body-bytes (1024 bytes)\"}");

            // the body was never sent: the connection serves the next request
            out.write("GET /health HTTP/1.1\r\nHost: pacer\r\n\r\n".getBytes(java.nio.charset.StandardCharsets.ISO_8859_1));
            out.flush();
            assertThat(readResponse(in)).startsWith("HTTP/1.1 200 ");
        }
    }

    /** One HTTP/1.1 response with a Content-Length: its status line, headers and body, as text. */
    private static String readResponse(final java.io.BufferedReader in) throws java.io.IOException
    {
        final StringBuilder response = new StringBuilder();
        int length = 0;
        for (String line = in.readLine(); line != null && !line.isEmpty(); line = in.readLine())
        {
            response.append(line).append('\n');
            if (line.toLowerCase(java.util.Locale.ROOT).startsWith("content-length:"))
            {
                length = Integer.parseInt(line.substring("content-length:".length()).trim());
            }
        }
        final char[] body = new char[length];
        for (int read = 0; read < length; )
        {
            final int n = in.read(body, read, length - read);
            if (n < 0)
            {
                break;
            }
            read += n;
        }
        return response.append('\n').append(body).toString();
    }

    @Test
    void shouldRefuseOtherMethods() throws Exception
    {
        final java.net.http.HttpClient http = java.net.http.HttpClient.newHttpClient();
        final HttpResponse<String> delete = http.send(java.net.http.HttpRequest.newBuilder(
            java.net.URI.create(pacer.adminUrl("/campaigns/42"))).DELETE().build(), HttpResponse.BodyHandlers.ofString());
        assertThat(delete.statusCode()).isEqualTo(405);
        assertThat(delete.headers().firstValue("allow")).hasValue("GET, PUT");
    }
}
