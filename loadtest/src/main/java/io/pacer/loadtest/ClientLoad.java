package io.pacer.loadtest;

import io.pacer.client.BidAnswerHandler;
import io.pacer.client.ClientReason;
import io.pacer.client.ClientStats;
import io.pacer.client.PacerClient;
import org.HdrHistogram.ConcurrentHistogram;
import org.HdrHistogram.Histogram;

import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicLongArray;
import java.util.concurrent.atomic.LongAdder;

/**
 * A closed-loop run through the client library, as a gateway would bid: {@code connections x
 * inFlight} lanes, each with one bid outstanding, sending its next bid from the answer's callback
 * (on the client's event loop) and, for each BID, a win or loss notice as a simulated exchange
 * would. Uses the callback API, so the library's cost is what a hot path would pay.
 */
final class ClientLoad implements BidAnswerHandler
{
    private final LoadOptions options;
    private final LoadClock clock;
    private final int lanes;
    private final long[] laneSentAt;
    private final long[] laneCampaign;
    private final long[] laneBid;
    private final SplittableRandom[] laneRandom;
    private final Histogram latencyNanos = new ConcurrentHistogram(TimeUnit.SECONDS.toNanos(60), 3);
    private final AtomicLongArray decisionsByReason = new AtomicLongArray(8);
    private final LongAdder answers = new LongAdder();
    private final LongAdder measured = new LongAdder();
    private final LongAdder wins = new LongAdder();
    private final LongAdder losses = new LongAdder();
    private final LongAdder refused = new LongAdder();
    private final AtomicLong sent = new AtomicLong();
    private final AtomicLong outstanding = new AtomicLong();
    private final long maxRequests;
    private volatile boolean stopped;
    private PacerClient client;

    ClientLoad(final LoadOptions options)
    {
        this.options = options;
        this.clock = new LoadClock(System.nanoTime(), options.warmup().toNanos(), options.duration().toNanos(),
            options.maxRequests());
        this.maxRequests = options.maxRequests();
        this.lanes = options.connections() * options.inFlight();
        this.laneSentAt = new long[lanes];
        this.laneCampaign = new long[lanes];
        this.laneBid = new long[lanes];
        this.laneRandom = new SplittableRandom[lanes];
        for (int i = 0; i < lanes; i++)
        {
            laneRandom[i] = new SplittableRandom(options.seed() * 1_000_003L + i);
        }
    }

    LoadReport run() throws Exception
    {
        client = PacerClient.connect(new PacerClient.Context()
            .node(options.host(), options.port())
            .connectionsPerNode(options.connections())
            .ioThreads(options.threads())
            .maxInFlightPerConnection(Math.max(16, Integer.highestOneBit(options.inFlight() * 4 - 1) * 2))
            // a throughput run: the deadline only catches a stall, it must not cut answers short
            .deadline(Duration.ofSeconds(1))
            .clientId(1 + clock.runId())
            .sslContext(options.tls())
            .closeTimeout(options.drainTimeout())
            .answerHandler(this));
        try
        {
            if (!client.awaitConnected(Duration.ofSeconds(5)))
            {
                throw new IllegalStateException("cannot connect to " + options.host() + ":" + options.port());
            }
            for (int lane = 0; lane < lanes; lane++)
            {
                issue(lane);
            }
            while (System.nanoTime() < clock.sendUntilNanos() && !stopped)
            {
                TimeUnit.MILLISECONDS.sleep(Math.max(1, Math.min(50, (clock.sendUntilNanos() - System.nanoTime()) / 1_000_000)));
            }
            stopped = true;
            final long drainUntil = System.nanoTime() + options.drainTimeout().toNanos();
            while (outstanding.get() > 0 && System.nanoTime() < drainUntil)
            {
                TimeUnit.MILLISECONDS.sleep(5);
            }
            final double seconds = Math.max(1e-9, (Math.min(System.nanoTime(), clock.sendUntilNanos()) - clock.measureFromNanos()) / 1e9);
            client.close();
            return report(seconds);
        }
        finally
        {
            client.close();
        }
    }

    private void issue(final int lane)
    {
        if (stopped || sent.incrementAndGet() > maxRequests)
        {
            stopped = true;
            return;
        }
        final SplittableRandom random = laneRandom[lane];
        final long campaignId = options.campaignBase() + random.nextInt(options.campaigns());
        final long bid = options.bidMinCpmMicros() == options.bidMaxCpmMicros() ? options.bidMinCpmMicros() :
            random.nextLong(options.bidMinCpmMicros(), options.bidMaxCpmMicros() + 1);
        laneCampaign[lane] = campaignId;
        laneBid[lane] = bid;
        laneSentAt[lane] = System.nanoTime();
        outstanding.incrementAndGet();
        if (client.bid(campaignId, bid, lane) < 0)
        {
            // refused at once (no connection, full queue): the lane stops, and the report says so
            outstanding.decrementAndGet();
            refused.increment();
        }
    }

    @Override
    public void onAnswer(final long correlationId, final long requestId, final long campaignId, final boolean bid, final int reason)
    {
        final int lane = (int)correlationId;
        final long now = System.nanoTime();
        answers.increment();
        if (now >= clock.measureFromNanos() && now < clock.sendUntilNanos() && !ClientReason.isFailSafe(reason))
        {
            measured.increment();
            latencyNanos.recordValue(Math.min(Math.max(0, now - laneSentAt[lane]), latencyNanos.getHighestTrackableValue()));
            decisionsByReason.incrementAndGet(reason);
        }
        if (bid)
        {
            simulateExchange(lane, requestId, campaignId);
        }
        outstanding.decrementAndGet();
        issue(lane);
    }

    private void simulateExchange(final int lane, final long requestId, final long campaignId)
    {
        final SplittableRandom random = laneRandom[lane];
        if (random.nextDouble() < options.noticeLossShare())
        {
            return;
        }
        if (random.nextDouble() < options.winRate())
        {
            final double share = options.clearingMinRatio() + random.nextDouble() * (1 - options.clearingMinRatio());
            wins.increment();
            client.win(requestId, campaignId, Math.max(0, (long)(laneBid[lane] * share)));
        }
        else
        {
            losses.increment();
            client.loss(requestId, campaignId);
        }
    }

    private LoadReport report(final double seconds)
    {
        final long[] reasons = new long[decisionsByReason.length()];
        for (int r = 0; r < reasons.length; r++)
        {
            reasons[r] = decisionsByReason.get(r);
        }
        final ClientStats stats = client.stats();
        final Map<String, Long> errors = new LinkedHashMap<>();
        errors.put("missingAnswers", outstanding.get());
        errors.put("refusedAtOnce", refused.sum());
        errors.put("failSafeDeadline", stats.get(ClientStats.Count.FAILSAFE_DEADLINE));
        errors.put("failSafeConnectionLost", stats.get(ClientStats.Count.FAILSAFE_CONNECTION_LOST));
        errors.put("lateAnswers", stats.get(ClientStats.Count.LATE_ANSWERS));
        errors.put("errorFramesReceived", stats.get(ClientStats.Count.PACER_ERRORS));
        errors.put("noticesNotAcknowledged", client.pendingNotices());
        final String mode = String.format("closed loop through the client library, %d connections x %d in flight",
            options.connections(), options.inFlight());
        final Histogram latency = latencyNanos.copy();
        return new LoadReport(mode, seconds, stats.get(ClientStats.Count.BIDS_SENT), answers.sum(), measured.sum(),
            wins.sum(), losses.sum(), latency, reasons, errors);
    }
}
