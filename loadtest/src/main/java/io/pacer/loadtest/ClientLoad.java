package io.pacer.loadtest;

import io.netty.util.concurrent.FastThreadLocal;
import io.pacer.client.BidAnswerHandler;
import io.pacer.client.ClientReason;
import io.pacer.client.ClientStats;
import io.pacer.client.PacerClient;

import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Queue;
import java.util.SplittableRandom;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
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
    /** What each event-loop thread counted: plain fields, one writer each, merged after the run. */
    private final Queue<AnswerTally> tallies = new ConcurrentLinkedQueue<>();
    private final FastThreadLocal<AnswerTally> tally = new FastThreadLocal<>()
    {
        @Override
        protected AnswerTally initialValue()
        {
            final AnswerTally t = new AnswerTally();
            tallies.add(t);
            return t;
        }
    };
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
            .deadline(options.clientDeadline())
            .clientId(1 + clock.runId())
            .sslContext(options.tls())
            .closeTimeout(options.drainTimeout())
            .answerHandler(this));
        try
        {
            if (!client.awaitAllConnected(Duration.ofSeconds(5)))
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
        final AnswerTally t = tally.get();
        t.answers++;
        if (now >= clock.measureFromNanos() && now < clock.sendUntilNanos() && !ClientReason.isFailSafe(reason))
        {
            t.measure(now - laneSentAt[lane], reason);
        }
        if (bid)
        {
            simulateExchange(t, lane, requestId, campaignId);
        }
        outstanding.decrementAndGet();
        issue(lane);
    }

    private void simulateExchange(final AnswerTally t, final int lane, final long requestId, final long campaignId)
    {
        final SplittableRandom random = laneRandom[lane];
        if (random.nextDouble() < options.noticeLossShare())
        {
            return;
        }
        if (random.nextDouble() < options.winRate())
        {
            final double share = options.clearingMinRatio() + random.nextDouble() * (1 - options.clearingMinRatio());
            t.wins++;
            client.win(requestId, campaignId, Math.max(0, (long)(laneBid[lane] * share)));
        }
        else
        {
            t.losses++;
            client.loss(requestId, campaignId);
        }
    }

    private LoadReport report(final double seconds)
    {
        // the client is closed: its event loops have ended, and every tally is final
        final AnswerTally total = new AnswerTally();
        for (final AnswerTally t : tallies)
        {
            t.addTo(total);
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
        return new LoadReport(mode, seconds, stats.get(ClientStats.Count.BIDS_SENT), total.answers, total.measuredAnswers,
            total.wins, total.losses, total.latencyNanos, total.decisionsByReason, errors);
    }
}
