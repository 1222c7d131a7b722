package io.pacer.monitoring;

import io.pacer.model.CampaignDefinition;
import io.pacer.model.CampaignStatus;
import io.pacer.model.PacingMode;
import io.pacer.pipeline.AdminCommand;
import io.pacer.pipeline.PacerPipeline;
import io.pacer.pipeline.PipelineConfig;
import io.pacer.pipeline.Responder;
import io.pacer.wire.Reason;
import org.agrona.concurrent.SystemEpochClock;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.time.Instant;
import java.time.ZoneId;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/** The metrics a real pipeline feeds, as Prometheus scrapes them. */
class PacerMetricsTest
{
    private final PacerMetrics metrics = new PacerMetrics("test");
    private PacerPipeline pipeline;

    @AfterEach
    void close()
    {
        if (pipeline != null)
        {
            pipeline.close();
        }
        metrics.close();
    }

    @Test
    void shouldCountDecisionsNoticesAndUpdatesFromTheShardsPublishedCounters() throws Exception
    {
        pipeline = new PacerPipeline(PipelineConfig.forTests(), SystemEpochClock.INSTANCE, metrics.decisions());
        metrics.bindPipeline(pipeline, () -> 0);
        pipeline.start();
        final Instant now = Instant.now();
        pipeline.submit(AdminCommand.update(new CampaignDefinition(1, 1_000_000, 0, now.minusSeconds(60),
            now.plusSeconds(3_600), ZoneId.of("UTC"), 0, PacingMode.ASAP, CampaignStatus.ACTIVE), 2))
            .get(10, TimeUnit.SECONDS);
        final AnswerLatch answers = new AnswerLatch(3);
        pipeline.tryPublishBid(1, 1, 2_000_000, answers);
        pipeline.tryPublishBid(2, 1, 2_000_000, answers);
        pipeline.tryPublishBid(3, 99, 2_000_000, answers);
        pipeline.wake();
        assertThat(answers.await()).isTrue();
        pipeline.publishNotice(true, 1, 1, 1_000_000);
        // a query behind the notice: once answered, the shards have handled and published it
        pipeline.submit(AdminCommand.query(1, 2)).get(10, TimeUnit.SECONDS);

        final String text = metrics.scrape(PacerMetrics.PROMETHEUS_TEXT);
        assertThat(text)
            .contains("pacer_decisions_total{decision=\"bid\",reason=\"none\"} 2.0")
            .contains("pacer_decisions_total{decision=\"no_bid\",reason=\"unknown_campaign\"} 1.0")
            .contains("pacer_campaign_updates_total 1.0")
            .contains("pacer_wins_matched_total 1.0")
            .contains("pacer_spend_booked_micros_total 1000.0")
            .contains("pacer_reservations_open 1.0")
            .contains("pacer_decision_latency_seconds_count 3")
            .contains("pacer_build_info{java=");
    }

    @Test
    void shouldServeOpenMetricsOnlyWhenAskedFor()
    {
        assertThat(PacerMetrics.contentTypeFor("application/openmetrics-text; version=1.0.0"))
            .isEqualTo(PacerMetrics.OPENMETRICS_TEXT);
        assertThat(PacerMetrics.contentTypeFor("text/plain")).isEqualTo(PacerMetrics.PROMETHEUS_TEXT);
        assertThat(PacerMetrics.contentTypeFor(null)).isEqualTo(PacerMetrics.PROMETHEUS_TEXT);
        assertThat(metrics.scrape(PacerMetrics.OPENMETRICS_TEXT)).endsWith("# EOF\n");
    }

    /** Counts answers until {@code expected} have come. */
    private static final class AnswerLatch implements Responder
    {
        private final CountDownLatch latch;

        AnswerLatch(final int expected)
        {
            this.latch = new CountDownLatch(expected);
        }

        boolean await() throws InterruptedException
        {
            return latch.await(10, TimeUnit.SECONDS);
        }

        @Override
        public boolean append(final long requestId, final Reason reason)
        {
            latch.countDown();
            return false;
        }

        @Override
        public void withdrawBids()
        {
        }

        @Override
        public void flush()
        {
        }

        @Override
        public void endOfStream()
        {
        }
    }
}
