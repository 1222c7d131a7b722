package io.pacer.server;

import io.pacer.server.config.InvalidConfigException;
import io.pacer.server.config.PacerConfig;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.Map;

import static io.pacer.server.TestPacer.asap;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** {@code pacer.admin.tokens-file}: tokens with roles, rotated by editing the file, on a real server. */
class AdminTokenFileIntegrationTest
{
    private static final String READER = "Bearer read-token-0123456789";
    private static final String WRITER = "Bearer write-token-0123456789";
    private static final String NEXT_WRITER = "Bearer write-token-next-0123456789";
    private static final String DEFINITION = asap(1, 2_000_000);

    @TempDir
    Path dir;

    @Test
    void shouldLetAReadTokenReadButNotWrite() throws Exception
    {
        final Path tokens = tokenFile("read read-token-0123456789\nwrite write-token-0123456789\n");
        try (TestPacer pacer = TestPacer.start(Map.of("pacer.admin.tokens-file", tokens.toString()), asap(1, 1_000_000)))
        {
            assertThat(pacer.get("/health").statusCode()).as("health checks carry no token").isEqualTo(200);
            assertThat(pacer.get("/campaigns/1").statusCode()).isEqualTo(401);
            assertThat(pacer.get("/metrics").statusCode()).isEqualTo(401);
            assertThat(pacer.get("/campaigns/1", READER).statusCode()).isEqualTo(200);
            assertThat(pacer.get("/metrics", READER).statusCode()).isEqualTo(200);

            assertThat(pacer.put("/campaigns/1", DEFINITION, READER).statusCode()).isEqualTo(403);
            assertThat(pacer.put("/campaigns/1", DEFINITION, WRITER).statusCode()).isEqualTo(200);
            assertThat(pacer.get("/campaigns/1", WRITER).body()).contains("\"budgetMicros\":2000000");
        }
    }

    @Test
    void shouldAcceptTheOldAndTheNewTokenDuringARotationAndOnlyTheNewOneAfter() throws Exception
    {
        final Path tokens = tokenFile("write write-token-0123456789\n");
        try (TestPacer pacer = TestPacer.start(Map.of("pacer.admin.tokens-file", tokens.toString()), asap(1, 1_000_000)))
        {
            assertThat(pacer.get("/campaigns/1", NEXT_WRITER).statusCode()).isEqualTo(401);

            Files.writeString(tokens, "write write-token-0123456789\nwrite write-token-next-0123456789\n");
            TestPacer.eventually(Duration.ofSeconds(10), () -> pacer.get("/campaigns/1", NEXT_WRITER).statusCode() == 200);
            assertThat(pacer.get("/campaigns/1", WRITER).statusCode()).as("both, during the rotation").isEqualTo(200);

            Files.writeString(tokens, "# rotated\nwrite write-token-next-0123456789\n");
            TestPacer.eventually(Duration.ofSeconds(10), () -> pacer.get("/campaigns/1", WRITER).statusCode() == 401);
            assertThat(pacer.put("/campaigns/1", DEFINITION, NEXT_WRITER).statusCode()).isEqualTo(200);
        }
    }

    @Test
    void shouldKeepTheTokensItHadWhenTheFileNoLongerParses() throws Exception
    {
        final Path tokens = tokenFile("write write-token-0123456789\n");
        try (TestPacer pacer = TestPacer.start(Map.of("pacer.admin.tokens-file", tokens.toString()), asap(1, 1_000_000)))
        {
            Files.writeString(tokens, "write\n");
            TestPacer.eventually(Duration.ofSeconds(10),
                () -> pacer.server.auth().tokenFileReloadFailures() > 0 || pacer.get("/campaigns/1", WRITER).statusCode() != 200);

            assertThat(pacer.get("/campaigns/1", WRITER).statusCode()).isEqualTo(200);
        }
    }

    @Test
    void shouldRefuseToStartWithATokenFileOtherUsersCanRead() throws Exception
    {
        final Path tokens = tokenFile("write write-token-0123456789\n");

        assertRefusedAsOpenToOthers(tokens, "rw-r--r--", Map.of("pacer.admin.tokens-file", tokens.toString()),
            "pacer.admin.tokens-file: " + tokens + " can be read or changed by other users (rw-r--r--)");
    }

    @Test
    void shouldRefuseToStartWithAKeyFileOtherUsersCanRead() throws Exception
    {
        final Path key = dir.resolve("server.key");
        Files.writeString(key, "-----BEGIN PRIVATE KEY-----\n-----END PRIVATE KEY-----\n");

        assertRefusedAsOpenToOthers(key, "rw-r-----",
            Map.of("pacer.gateway.tls.cert-file", key.toString(), "pacer.gateway.tls.key-file", key.toString()),
            "pacer.gateway.tls.key-file: " + key + " can be read or changed by other users");
    }

    /** With {@code file} given {@code permissions}, loading {@code config} is refused with {@code message}. */
    private static void assertRefusedAsOpenToOthers(final Path file, final String permissions,
        final Map<String, Object> config, final String message) throws Exception
    {
        Files.setPosixFilePermissions(file, PosixFilePermissions.fromString(permissions));
        assertThatThrownBy(() -> PacerConfig.load(null, config))
            .isInstanceOf(InvalidConfigException.class)
            .hasMessageContaining(message);
    }

    @Test
    void shouldStopServeWithExitTwoNamingAMisspeltSecurityKey() throws Exception
    {
        final Path conf = dir.resolve("pacer.conf");
        Files.writeString(conf, "pacer.gateway.tls.client-ca-fille = \"/etc/pacer/gateways-ca.pem\"\n");

        final JournalIntegrationTest.Run serve = JournalIntegrationTest.cli("serve", "--config", conf.toString());

        assertThat(serve.exitCode()).isEqualTo(2);
        assertThat(serve.err()).contains("pacer.gateway.tls.client-ca-fille: unknown key; did you mean pacer.gateway.tls.client-ca-file?");
    }

    private Path tokenFile(final String content) throws Exception
    {
        final Path file = dir.resolve("admin-tokens");
        Files.writeString(file, content);
        Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("rw-------"));
        return file;
    }
}
