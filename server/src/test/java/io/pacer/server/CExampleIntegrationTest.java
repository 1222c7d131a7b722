package io.pacer.server;

import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;

import static io.pacer.server.TestPacer.asap;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * examples/c: a gateway in C written from protocol.md alone, built with the system's cc and run
 * against the real server. It proves the spec is enough for a team that does not use Java.
 */
class CExampleIntegrationTest
{
    private static final Path SOURCE = Path.of("../examples/c/pacer_gateway.c").toAbsolutePath().normalize();

    private static String run(final String... command) throws Exception
    {
        final Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
        final String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(process.waitFor(60, TimeUnit.SECONDS)).isTrue();
        assertThat(process.exitValue()).as("%s%n%s", String.join(" ", command), output).isZero();
        return output;
    }

    @Test
    void shouldBidAndBookFromTheCExampleGateway() throws Exception
    {
        final Path binary = Files.createTempDirectory("pacer-c").resolve("pacer-gateway");
        run("cc", "-std=c11", "-O2", "-Wall", "-Wextra", "-Werror", "-o", binary.toString(), SOURCE.toString());
        try (TestPacer pacer = TestPacer.start(asap(42, 100_000_000)))
        {
            final String port = Integer.toString(pacer.server.gatewayAddress().getPort());
            final String bids = run(binary.toString(), "127.0.0.1", port, "42", "5000", "2500000");
            assertThat(bids).contains("answered=5000 bid=5000 no_bid=0 wins_sent=5000 losses_sent=0 errors=0");
            assertThat(pacer.campaign(42).get("spentNanos").asLong()).isEqualTo(5_000 * 2_500_000L);
            assertThat(pacer.campaign(42).get("reservedNanos").asLong()).isZero();

            final String unknown = run(binary.toString(), "127.0.0.1", port, "999", "100", "2500000");
            assertThat(unknown).contains("answered=100 bid=0 no_bid=100", "reason[UNKNOWN_CAMPAIGN]=100");
        }
        Files.deleteIfExists(binary);
        Files.deleteIfExists(binary.getParent());
    }
}
