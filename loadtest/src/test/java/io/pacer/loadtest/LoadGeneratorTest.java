package io.pacer.loadtest;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import java.time.Duration;

import static org.assertj.core.api.Assertions.assertThat;

/** The load generator's own accounting and latency measurement, against a scripted server. */
class LoadGeneratorTest
{
    private static LoadOptions.Builder options(final FakeGateway gateway)
    {
        return LoadOptions.builder().port(gateway.port()).connections(2).inFlight(8)
            .duration(Duration.ofMillis(1500)).warmup(Duration.ZERO).drainTimeout(Duration.ofSeconds(2))
            .exchange(0.3, 0.5, 0.0);
    }

    @ParameterizedTest
    @EnumSource(LoadOptions.Engine.class)
    void shouldAccountForEveryRequestAndSendANoticeForEveryBid(final LoadOptions.Engine engine) throws Exception
    {
        try (FakeGateway gateway = new FakeGateway(0, 0, FakeGateway.Misbehaviour.NONE))
        {
            final LoadReport report = new LoadGenerator(options(gateway).engine(engine).build()).run();
            assertThat(report.errors()).isEmpty();
            assertThat(report.answers()).isEqualTo(report.sent()).isPositive();
            assertThat(report.wins() + report.losses()).isEqualTo(report.answers());
            assertThat(report.wins()).isBetween(report.answers() / 5, report.answers() * 2 / 5);
            Thread.sleep(200);
            assertThat(gateway.notices.get()).isEqualTo(report.wins() + report.losses());
            assertThat(report.toJson()).contains("\"errors\":{}");
        }
    }

    @Test
    void shouldStopAtMaxRequests() throws Exception
    {
        try (FakeGateway gateway = new FakeGateway(0, 0, FakeGateway.Misbehaviour.NONE))
        {
            final LoadReport report = new LoadGenerator(options(gateway).maxRequests(1_000).build()).run();
            assertThat(report.sent()).isEqualTo(1_000);
            assertThat(report.answers()).isEqualTo(1_000);
            assertThat(report.clean()).isTrue();
        }
    }

    @Test
    void shouldReportDuplicateAnswersAsUnknownRequestIds() throws Exception
    {
        try (FakeGateway gateway = new FakeGateway(0, 0, FakeGateway.Misbehaviour.DUPLICATE_EVERY_100TH))
        {
            final LoadReport report = new LoadGenerator(options(gateway).engine(LoadOptions.Engine.RAW).build()).run();
            assertThat(report.clean()).isFalse();
            assertThat(report.errors()).containsKey("unknownRequestIds");
        }
    }

    @Test
    void shouldReportDuplicateAnswersAsLateAnswersThroughTheClient() throws Exception
    {
        try (FakeGateway gateway = new FakeGateway(0, 0, FakeGateway.Misbehaviour.DUPLICATE_EVERY_100TH))
        {
            final LoadReport report = new LoadGenerator(options(gateway).build()).run();
            assertThat(report.clean()).isFalse();
            assertThat(report.errors()).containsKey("lateAnswers");
        }
    }

    @Test
    void shouldFailSafeTheAnswersAServerNeverSendsThroughTheClient() throws Exception
    {
        try (FakeGateway gateway = new FakeGateway(0, 0, FakeGateway.Misbehaviour.DROP_EVERY_100TH))
        {
            final LoadReport report = new LoadGenerator(options(gateway).duration(Duration.ofMillis(2500))
                .clientDeadline(Duration.ofMillis(500)).build()).run();
            assertThat(report.errors()).containsKey("failSafeDeadline");
            assertThat(report.answers()).as("a fail-safe answers every bid").isEqualTo(report.sent());
        }
    }

    @Test
    void shouldReportMissingAnswers() throws Exception
    {
        try (FakeGateway gateway = new FakeGateway(0, 0, FakeGateway.Misbehaviour.DROP_EVERY_100TH))
        {
            final LoadReport report = new LoadGenerator(options(gateway).engine(LoadOptions.Engine.RAW)
                .drainTimeout(Duration.ofMillis(300)).build()).run();
            assertThat(report.errors()).containsKey("missingAnswers");
        }
    }

    @Test
    void shouldShowAServerPauseInOpenLoopLatencies() throws Exception
    {
        // 2,000 req/s for 2 s; the server stalls 400 ms after 1,000 requests: every request due during
        // the stall waits for it, so at least a tenth of all latencies are over 100 ms
        try (FakeGateway gateway = new FakeGateway(1_000, 400, FakeGateway.Misbehaviour.NONE))
        {
            final LoadReport report = new LoadGenerator(options(gateway).rate(2_000)
                .duration(Duration.ofSeconds(2)).build()).run();
            assertThat(report.clean()).isTrue();
            assertThat(report.maxLatencyNanos()).isGreaterThan(Duration.ofMillis(300).toNanos());
            assertThat(report.latencyNanosAt(90)).isGreaterThan(Duration.ofMillis(100).toNanos());
        }
    }

    @Test
    void shouldHideTheSamePauseInClosedLoopFromAllButTheRequestsInFlight() throws Exception
    {
        // the contrast that makes open loop necessary: closed loop stops sending while stalled
        try (FakeGateway gateway = new FakeGateway(1_000, 400, FakeGateway.Misbehaviour.NONE))
        {
            final LoadReport report = new LoadGenerator(options(gateway).duration(Duration.ofSeconds(2)).build()).run();
            assertThat(report.maxLatencyNanos()).isGreaterThan(Duration.ofMillis(300).toNanos());
            assertThat(report.latencyNanosAt(90)).isLessThan(Duration.ofMillis(100).toNanos());
        }
    }
}
