package io.pacer.server.config;

import org.junit.jupiter.api.Test;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class PacerConfigTest
{
    private static final List<String> THREE_MEMBERS = List.of("127.0.0.1", "127.0.0.1", "127.0.0.1");

    @Test
    void shouldLoadTheEmbeddedDefaults()
    {
        final PacerConfig config = PacerConfig.load(null);
        assertThat(config.gateway().host()).isEqualTo("127.0.0.1");
        assertThat(config.gateway().port()).isEqualTo(9400);
        assertThat(config.admin().port()).isEqualTo(9401);
        assertThat(config.gateway().maxFrameBytes()).isEqualTo(4096);
        assertThat(config.pipeline().shards()).isEqualTo(1);
        assertThat(config.pipeline().waitStrategy()).isEqualTo("phased");
        assertThat(config.pipeline().policy().reservationTtlMillis()).isEqualTo(30_000);
        assertThat(config.campaigns().file()).isEqualTo(config.home().resolve("conf/campaigns.json"));
        assertThat(config.admin().token()).isEmpty();
        assertThat(config.gateway().tls().enabled()).isFalse();
        assertThat(config.journal().fsync()).isEqualTo(io.pacer.pipeline.journal.JournalWriter.FsyncPolicy.PERIODIC);
        assertThat(config.journal().retainCovered()).isTrue();
    }

    @Test
    void shouldReadAnOperatorFileAndLetOverridesWin() throws Exception
    {
        final Path file = Files.createTempFile("pacer", ".conf");
        Files.writeString(file, "pacer.gateway.port = 9500\npacer.pipeline.shards = 4\n");
        final PacerConfig config = PacerConfig.load(file, Map.of("pacer.pipeline.shards", 2));
        assertThat(config.gateway().port()).isEqualTo(9500);
        assertThat(config.pipeline().shards()).isEqualTo(2);
        Files.delete(file);
    }

    @Test
    void shouldNameTheKeyOfAnInvalidValue()
    {
        assertInvalid(Map.of("pacer.pipeline.shards", 3), "pacer.pipeline.shards: must be a power of two");
        assertInvalid(Map.of("pacer.pipeline.ring-size", 1000), "pacer.pipeline.ring-size: must be a power of two");
        assertInvalid(Map.of("pacer.pipeline.wait-strategy", "spinny"), "pacer.pipeline.wait-strategy: must be one of");
        assertInvalid(Map.of("pacer.gateway.port", 70_000), "pacer.gateway.port: must be between 0 and 65535");
        assertInvalid(Map.of("pacer.gateway.max-frame-bytes", 20), "pacer.gateway.max-frame-bytes");
        assertInvalid(Map.of("pacer.pacing.reservation-ttl", "0s"), "pacer.pacing.reservation-ttl: must be > 0");
        assertInvalid(Map.of("pacer.pacing.replan-interval", "2h"), "pacer.pacing.replan-interval: must be > 0 and at most 1h");
        assertInvalid(Map.of("pacer.gateway.port", "ninety"), "pacer.gateway.port");
        assertInvalid(Map.of("pacer.pipeline.queue-deadline", "-1ms"), "pacer.pipeline.queue-deadline: must be >= 0");
        assertInvalid(Map.of("pacer.gateway.max-unwritten-bytes", "128KiB"),
            "pacer.gateway.max-unwritten-bytes: must exceed pacer.gateway.write-high-water-mark");
        assertInvalid(Map.of("pacer.gateway.write-high-water-mark", "lots"), "pacer.gateway.write-high-water-mark");
        assertInvalid(Map.of("pacer.gateway.tls.key-file", "/no/such/key.pem"), "pacer.gateway.tls.cert-file: must be set");
        assertInvalid(Map.of("pacer.pacing.notice-dedupe-window", "30s"), "pacer.pacing.notice-dedupe-window: must be at least twice");
        assertInvalid(Map.of("pacer.pacing.notice-dedupe-window", "soon"), "pacer.pacing.notice-dedupe-window");
        assertInvalid(Map.of("pacer.pipeline.threading", "many"), "pacer.pipeline.threading: must be one of");
        assertInvalid(Map.of("pacer.pipeline.tick-interval", "0s"), "pacer.pipeline.tick-interval: must be > 0");
        assertInvalid(Map.of("pacer.journal.fsync", "sometimes"), "pacer.journal.fsync: must be periodic, batch or never");
        assertInvalid(Map.of("pacer.journal.retention", "forever"), "pacer.journal.retention: must be keep or delete-covered");
        assertInvalid(Map.of("pacer.journal.segment-size", "1KiB"), "pacer.journal.segment-size: must be between");
        assertInvalid(Map.of("pacer.campaigns.poll-interval", "0s"), "pacer.campaigns.poll-interval: must be positive");
        assertInvalid(Map.of("pacer.shutdown.timeout", "0s"), "pacer.shutdown.timeout: must be positive");
        assertInvalid(Map.of("pacer.gateway.allow", List.of("10.0.0.0/33")), "pacer.gateway.allow: \"10.0.0.0/33\": the prefix length must be between 0 and 32");
        assertInvalid(Map.of("pacer.admin.allow", List.of("gateways.example.com")), "pacer.admin.allow: \"gateways.example.com\" is not an IP address");
        assertInvalid(Map.of("pacer.gateway.allow", "10.0.0.0/8"), "pacer.gateway.allow: Wrong value type at 'pacer.gateway.allow', expecting: list");
    }

    @Test
    void shouldRefuseANonLoopbackAdminListenerWithoutAToken()
    {
        assertInvalid(Map.of("pacer.admin.host", "0.0.0.0"), "pacer.admin.token: must be set");
        assertThat(PacerConfig.load(null, Map.of("pacer.admin.host", "0.0.0.0", "pacer.admin.token", "t")).admin().host())
            .isEqualTo("0.0.0.0");
    }

    @Test
    void shouldRefuseAnUnknownKeyNamingItAndTheKeyItWasMeantToBe() throws Exception
    {
        assertInvalid(Map.of("pacer.admin.tokn", "secret"), "pacer.admin.tokn: unknown key; did you mean pacer.admin.token?");
        final Path file = Files.createTempFile("pacer", ".conf");
        Files.writeString(file, "pacer.pipeline.shard = 2\n");
        assertThatThrownBy(() -> PacerConfig.load(file))
            .isInstanceOf(InvalidConfigException.class)
            .hasMessageContaining("pacer.pipeline.shard: unknown key; did you mean pacer.pipeline.shards?");
        Files.delete(file);
    }

    @Test
    void shouldRefuseAKeyThisVersionDoesNotHaveRatherThanRunWithoutIt()
    {
        // a key from a newer release must not be accepted and then ignored
        assertInvalid(Map.of("pacer.cluster.witnesses", List.of("127.0.0.1:9410")), "pacer.cluster.witnesses: unknown key;");
        // nor a misspelt security key, which would leave client authentication off
        assertInvalid(Map.of("pacer.gateway.tls.client-ca-fille", "/etc/pacer/gateways-ca.pem"),
            "pacer.gateway.tls.client-ca-fille: unknown key; did you mean pacer.gateway.tls.client-ca-file?");
        assertInvalid(Map.of("pacer.admin.tokn", "a", "pacer.gateway.prot", 1), "(and 1 more: [pacer.admin.tokn, pacer.gateway.prot])");
    }

    @Test
    void shouldRememberNoticesForTwiceTheReservationTtlUnlessAWindowIsGiven()
    {
        assertThat(PacerConfig.load(null).pipeline().policy().noticeDedupeWindowMillis()).isEqualTo(60_000);
        assertThat(PacerConfig.load(null, Map.of("pacer.pacing.reservation-ttl", "45s")).pipeline().policy().noticeDedupeWindowMillis())
            .isEqualTo(90_000);
        assertThat(PacerConfig.load(null, Map.of("pacer.pacing.notice-dedupe-window", "5m")).pipeline().policy().noticeDedupeWindowMillis())
            .isEqualTo(300_000);
    }

    @Test
    void shouldLetTheEnvironmentOverTheOperatorFileAndOverridesOverBoth() throws Exception
    {
        final Path file = Files.createTempFile("pacer", ".conf");
        Files.writeString(file, "pacer.gateway.port = 9500\npacer.admin.port = 9501\npacer.pipeline.shards = 4\n");
        final Map<String, String> environment = Map.of("PACER_GATEWAY_PORT", "9600", "PACER_SHARDS", "8",
            "PATH", "/usr/bin", "PACER_NOT_A_KEY", "x");

        final PacerConfig config = PacerConfig.load(file, Map.of("pacer.pipeline.shards", 2), environment);

        assertThat(config.gateway().port()).as("the environment over the file").isEqualTo(9600);
        assertThat(config.admin().port()).as("the file, where no variable is set").isEqualTo(9501);
        assertThat(config.pipeline().shards()).as("an override over both").isEqualTo(2);
        assertThat(PacerConfig.load(null, Map.of(), environment).gateway().port()).as("the environment over the defaults").isEqualTo(9600);
    }

    @Test
    void shouldGiveTheEmbeddedDefaultsAloneWithNoSystemPropertyAbove()
    {
        System.setProperty("pacer.gateway.port", "9700");
        try
        {
            assertThat(PacerConfig.load(null).gateway().port()).isEqualTo(9700);
            assertThat(PacerConfig.embedded(Map.of("pacer.admin.port", 0)).gateway().port()).isEqualTo(9400);
            assertThat(PacerConfig.embedded(Map.of("pacer.admin.port", 0)).admin().port()).isZero();
        }
        finally
        {
            System.clearProperty("pacer.gateway.port");
        }
    }

    @Test
    void shouldLetAVariableSetAKeyBackToItsDefaultOverTheFile() throws Exception
    {
        final Path file = Files.createTempFile("pacer", ".conf");
        Files.writeString(file, "pacer.pipeline.wait-strategy = \"blocking\"\npacer.admin.token = \"from-the-file\"\n");

        final PacerConfig config = PacerConfig.load(file, Map.of(), Map.of("PACER_WAIT_STRATEGY", "phased", "PACER_ADMIN_TOKEN", ""));

        assertThat(config.pipeline().waitStrategy()).isEqualTo("phased");
        assertThat(config.admin().token()).as("an empty variable is unset: it clears nothing").isEqualTo("from-the-file");
    }

    @Test
    void shouldIgnoreVariablesNoSubstitutionCanName()
    {
        final PacerConfig config = PacerConfig.load(null, Map.of(),
            Map.of("PACER_ADMIN_TOKEN.old", "x", "PACER_X..Y", "y", "PACER_GATEWAY_PORT", "9600", "PACER_CLUSTER_ENABLED", "Off"));

        assertThat(config.admin().token()).isEmpty();
        assertThat(config.gateway().port()).isEqualTo(9600);
    }

    @Test
    void shouldLeaveTheHomeTheLauncherExportsBelowTheFile() throws Exception
    {
        final Path file = Files.createTempFile("pacer", ".conf");
        Files.writeString(file, "pacer.home = \"/srv/pacer\"\n");

        assertThat(PacerConfig.load(file, Map.of(), Map.of("PACER_HOME", "/checkout")).home()).isEqualTo(Path.of("/srv/pacer"));
    }

    @Test
    void shouldRefuseAVariableOfAnEarlierVersionNamingItsReplacement()
    {
        assertThatThrownBy(() -> PacerConfig.load(null, Map.of(), Map.of("PACER_ADMIN_TOKEN_FILE", "/etc/pacer/tokens")))
            .isInstanceOf(InvalidConfigException.class)
            .hasMessageContaining("PACER_ADMIN_TOKEN_FILE: no longer read; use PACER_ADMIN_TOKENS_FILE");
        assertThatThrownBy(() -> PacerConfig.load(null, Map.of(), Map.of("PACER_CLUSTER_ENABLED", "true")))
            .hasMessageContaining("PACER_CLUSTER_ENABLED: no longer read");
        assertThat(PacerConfig.load(null, Map.of(), Map.of("PACER_CLUSTER_ENABLED", "false")).cluster().enabled()).isFalse();
    }

    @Test
    void shouldNameTheKeyOfAnEnvironmentVariableThatIsNotValid()
    {
        assertThatThrownBy(() -> PacerConfig.load(null, Map.of(), Map.of("PACER_GATEWAY_PORT", "ninety")))
            .isInstanceOf(InvalidConfigException.class)
            .hasMessageContaining("pacer.gateway.port");
    }

    /** The README's quick start runs bin/pacer serve, which reads the template: it must change no default. */
    @Test
    void shouldShipAnOperatorTemplateThatChangesNoDefault()
    {
        final com.typesafe.config.Config template = com.typesafe.config.ConfigFactory.parseFile(new java.io.File("../conf/application.conf"));
        final com.typesafe.config.Config reference = EnvironmentLayer.reference(Map.of());
        assertThat(template.getConfig("pacer").entrySet()).isNotEmpty().allSatisfy(entry ->
            assertThat(entry.getValue().unwrapped()).as("pacer." + entry.getKey())
                .isEqualTo(reference.getValue("pacer." + entry.getKey()).unwrapped()));
    }

    @Test
    void shouldAcceptEveryKeyOfTheShippedOperatorTemplate()
    {
        final PacerConfig config = PacerConfig.load(Path.of("../conf/application.conf"));
        assertThat(config.gateway().port()).isPositive();
    }

    @Test
    void shouldGiveEachShippedClusterNodeItsOwnMemberIdPortsAndDirectory()
    {
        for (int member = 0; member < 3; member++)
        {
            final PacerConfig config = PacerConfig.load(Path.of("../conf/cluster/node-" + member + ".conf"));
            assertThat(config.cluster().enabled()).isTrue();
            assertThat(config.cluster().memberId()).isEqualTo(member);
            assertThat(config.cluster().members()).hasSize(3);
            assertThat(config.gateway().port()).isEqualTo(9400 + 10 * member);
            assertThat(config.cluster().dir().toString()).endsWith("data/cluster-" + member);
            assertThat(config.cluster().settings(100).clusterMembers()).contains("2,127.0.0.1:20020,");
        }
    }

    @Test
    void shouldRefuseAClusterMemberIdOutsideItsMembers()
    {
        assertInvalid(Map.of("pacer.cluster.members", THREE_MEMBERS, "pacer.cluster.member-id", 3),
            "pacer.cluster.member-id: must be between 0 and 2, was 3");
        assertInvalid(Map.of("pacer.cluster.members", THREE_MEMBERS, "pacer.cluster.idle-strategy", "spin"),
            "pacer.cluster.idle-strategy: must be one of [backoff, yielding, busy-spin], was \"spin\"");
        assertInvalid(Map.of("pacer.cluster.members", THREE_MEMBERS, "pacer.cluster.threading", "pinned"),
            "pacer.cluster.threading: must be shared or dedicated");
        assertInvalid(Map.of("pacer.cluster.members", THREE_MEMBERS, "pacer.cluster.file-sync-level", 3),
            "pacer.cluster.file-sync-level: must be between 0 and 2, was 3");
    }

    @Test
    void shouldRunASingleNodeUnlessMembersAreNamedAndStillCheckTheClusterKeys()
    {
        assertThat(PacerConfig.load(null).cluster().enabled()).isFalse();
        assertThat(PacerConfig.load(null, Map.of("pacer.cluster.members", THREE_MEMBERS, "pacer.cluster.member-id", 2)).cluster().enabled())
            .isTrue();
        assertInvalid(Map.of("pacer.cluster.idle-strategy", "spin"), "pacer.cluster.idle-strategy: must be one of");
        assertInvalid(Map.of("pacer.cluster.member-id", 1), "pacer.cluster.member-id: is set, but pacer.cluster.members is empty");
    }

    @Test
    void shouldReadByteSizesWithOrWithoutAUnit()
    {
        final PacerConfig config = PacerConfig.load(null, Map.of("pacer.gateway.max-frame-bytes", "8KiB", "pacer.admin.max-body-bytes", "4MiB"));
        assertThat(config.gateway().maxFrameBytes()).isEqualTo(8192);
        assertThat(config.admin().maxBodyBytes()).isEqualTo(4 << 20);
        assertThat(PacerConfig.load(null, Map.of("pacer.gateway.max-frame-bytes", 512)).gateway().maxFrameBytes()).isEqualTo(512);
        assertInvalid(Map.of("pacer.admin.max-body-bytes", "3GiB"), "pacer.admin.max-body-bytes: must be at most");
        assertInvalid(Map.of("pacer.gateway.max-frame-bytes", "lots"), "pacer.gateway.max-frame-bytes: must be a size");
    }

    @Test
    void shouldRefuseAMisspeltKeyGivenAsASystemProperty()
    {
        System.setProperty("pacer.admin.tokn", "secret");
        try
        {
            assertThatThrownBy(() -> PacerConfig.load(null))
                .isInstanceOf(InvalidConfigException.class)
                .hasMessageContaining("pacer.admin.tokn: unknown key; did you mean pacer.admin.token?");
        }
        finally
        {
            System.clearProperty("pacer.admin.tokn");
        }
    }

    @Test
    void shouldTakeAListAsTheElementsSystemPropertiesGiveIt()
    {
        System.setProperty("pacer.cluster.members.0", "127.0.0.1");
        System.setProperty("pacer.cluster.members.1", "127.0.0.2");
        try
        {
            assertThat(PacerConfig.load(null).cluster().members()).containsExactly("127.0.0.1", "127.0.0.2");
            assertInvalid(Map.of("pacer.cluster.member.0", "x"), "pacer.cluster.member.0: unknown key");
        }
        finally
        {
            System.clearProperty("pacer.cluster.members.0");
            System.clearProperty("pacer.cluster.members.1");
        }
    }

    @Test
    void shouldNameTheKeyThatReplacedAKeyOfAnEarlierVersion()
    {
        assertInvalid(Map.of("pacer.cluster.enabled", true), "pacer.cluster.enabled: no longer a key; use pacer.cluster.members");
        assertInvalid(Map.of("pacer.admin.token-file", "/etc/pacer/tokens"), "pacer.admin.token-file: no longer a key; use pacer.admin.tokens-file");
        assertInvalid(Map.of("pacer.gateway.permissions", Map.of("bidder-1", Map.of("send", List.of("bid-request")))),
            "no longer a key; use pacer.gateways");
    }

    @Test
    void shouldNameTheKeyOfAnUnusablePermission()
    {
        assertInvalid(Map.of("pacer.gateways", Map.of("bidder-1", Map.of("send", List.of("bid-request")))),
            "pacer.gateways: needs pacer.gateway.tls.client-ca-file");
        assertInvalid(Map.of("pacer.gateways", Map.of("bidder-1", Map.of("send", List.of("bids")))),
            "pacer.gateways.\"bidder-1\".send: \"bids\" is not a message kind");
        assertInvalid(Map.of("pacer.gateways",
                Map.of("feed", Map.of("send", List.of("win-notice"), "campaigns", List.of("20-10")))),
            "pacer.gateways.\"feed\".campaigns: \"20-10\": a range must run from a low id to a higher one");
        assertInvalid(Map.of("pacer.gateways", Map.of("feed", Map.of("sned", List.of("win-notice")))),
            "pacer.gateways.\"feed\".sned: unknown key");
    }

    @Test
    void shouldRefuseAMissingConfigFile()
    {
        assertThatThrownBy(() -> PacerConfig.load(Path.of("/nonexistent/pacer.conf")))
            .isInstanceOf(InvalidConfigException.class).hasMessageContaining("no such file");
    }

    private static void assertInvalid(final Map<String, Object> overrides, final String message)
    {
        assertThatThrownBy(() -> PacerConfig.load(null, overrides))
            .isInstanceOf(InvalidConfigException.class)
            .hasMessageContaining(message);
    }
}
