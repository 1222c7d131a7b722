package io.pacer.client;

import io.pacer.wire.Reason;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.Callable;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.stream.Collectors;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** The client against a fake pacer that can stall and drop connections on cue, over loopback TCP. */
class PacerClientTest
{
    private final List<AutoCloseable> open = new ArrayList<>();
    private final ConcurrentHashMap<Long, Answer> answers = new ConcurrentHashMap<>();

    private record Answer(long requestId, boolean bid, int reason, long atNanos)
    {
    }

    @AfterEach
    void closeAll() throws Exception
    {
        for (int i = open.size() - 1; i >= 0; i--)
        {
            open.get(i).close();
        }
    }

    private FakePacer fake() throws Exception
    {
        final FakePacer fake = new FakePacer();
        open.add(fake);
        return fake;
    }

    private PacerClient client(final PacerClient.Context context) throws Exception
    {
        final PacerClient client = PacerClient.connect(context
            .answerHandler((correlationId, requestId, campaignId, bid, reason) ->
                answers.put(correlationId, new Answer(requestId, bid, reason, System.nanoTime())))
            .closeTimeout(Duration.ofMillis(500)));
        open.add(client);
        assertThat(client.awaitConnected(Duration.ofSeconds(10))).isTrue();
        return client;
    }

    private static PacerClient.Context to(final FakePacer... fakes)
    {
        final PacerClient.Context context = new PacerClient.Context().clientId(7);
        for (final FakePacer f : fakes)
        {
            context.node("127.0.0.1", f.port());
        }
        return context;
    }

    private static void eventually(final Callable<Boolean> condition) throws Exception
    {
        final long end = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
        while (!condition.call())
        {
            assertThat(System.nanoTime()).as("condition not met in 20 s").isLessThan(end);
            Thread.sleep(2);
        }
    }

    @Test
    void shouldAnswerEveryBidThroughTheHandlerAndTheFuture() throws Exception
    {
        final FakePacer fake = fake();
        fake.bidFor(campaignId -> campaignId != 13);
        final PacerClient client = client(to(fake).deadline(Duration.ofSeconds(5)));
        for (long i = 0; i < 1_000; i++)
        {
            assertThat(client.bid(i % 20, 1_000, i)).isPositive();
        }
        final BidAnswer viaFuture = client.bid(5, 1_000).get(10, TimeUnit.SECONDS);
        assertThat(viaFuture.bid()).isTrue();
        assertThat(client.bid(13, 1_000).get(10, TimeUnit.SECONDS))
            .extracting(BidAnswer::bid, BidAnswer::reason).containsExactly(false, (int)Reason.PACING.value());
        eventually(() -> answers.size() == 1_000);
        assertThat(answers.get(13L).bid()).isFalse();
        assertThat(answers.values().stream().filter(Answer::bid)).hasSize(950);
        assertThat(answers.values().stream().map(Answer::requestId).collect(Collectors.toSet())).hasSize(1_000)
            .allMatch(id -> id >>> (63 - PacerClient.CLIENT_ID_BITS) == 7, "carries the client id");
        assertThat(fake.received(1)).hasSize(1_002);
        assertThat(client.stats().failSafes()).isZero();
    }

    private static final int WARM_UP = 2_000;

    @Test
    void shouldFailSafeWithinTheDeadlineWhenThePacerStallsAndReleaseTheLateBids() throws Exception
    {
        final FakePacer fake = fake();
        final Duration deadline = Duration.ofMillis(5);
        final PacerClient client = client(to(fake).deadline(deadline));
        // warm-up: a cold JVM's first time-outs wait for class loading and the JIT
        fake.stall();
        for (int i = 0; i < WARM_UP; i++)
        {
            client.bid(1, 1_000, 1_000_000 + i);
            Thread.sleep(0, 250_000);
        }
        eventually(() -> answers.size() == WARM_UP);
        fake.resume();
        // (a probe for the releases may time out too, and its answer is late as well)
        eventually(() -> client.stats().get(ClientStats.Count.LATE_ANSWERS) >= WARM_UP && fake.received(4).size() == WARM_UP);
        final long lateBefore = client.stats().get(ClientStats.Count.LATE_ANSWERS);
        answers.clear();
        fake.received.clear();

        fake.stall();
        final int bids = 400;
        final long[] sentAt = new long[bids];
        for (int i = 0; i < bids; i++)
        {
            sentAt[i] = System.nanoTime();
            assertThat(client.bid(1, 1_000, i)).isPositive();
            Thread.sleep(1);
        }
        eventually(() -> answers.size() == bids);
        final long[] waited = new long[bids];
        for (int i = 0; i < bids; i++)
        {
            final Answer a = answers.get((long)i);
            assertThat(a.bid()).isFalse();
            assertThat(a.reason()).isEqualTo(ClientReason.DEADLINE_EXCEEDED);
            waited[i] = a.atNanos() - sentAt[i];
        }
        Arrays.sort(waited);
        final long p99 = waited[(int)(bids * 0.99) - 1];
        System.out.printf("fail-safe after a %d ms deadline: median %.2f ms, p90 %.2f ms, p99 %.2f ms, max %.2f ms%n",
            deadline.toMillis(), waited[bids / 2] / 1e6, waited[bids * 9 / 10] / 1e6, p99 / 1e6, waited[bids - 1] / 1e6);
        assertThat(waited[0]).isGreaterThanOrEqualTo(deadline.toNanos());
        // how soon after the deadline is a speed, measured in bench/BENCHMARKS.md (p99 of deadline + 1 ms,
        // medians of runs); here, on a shared 2-core CI host (a p99 of deadline + 11 ms was seen), the
        // bounds only say that the answers come from the client's timer while the pacer stays stalled
        assertThat(waited[bids / 2]).as("median within deadline + 5 ms").isLessThanOrEqualTo(deadline.toNanos() + 5_000_000);
        assertThat(p99).as("p99 within deadline + 100 ms").isLessThanOrEqualTo(deadline.toNanos() + 100_000_000);
        assertThat(client.stats().get(ClientStats.Count.FAILSAFE_DEADLINE)).isEqualTo(WARM_UP + bids);

        // every bid that timed out is released with a LossNotice, whatever the pacer decides later
        final Set<Long> bidIds = fake.received(1).stream().filter(r -> r.value() > 0) // probes bid 0
            .map(FakePacer.Received::requestId).collect(Collectors.toSet());
        assertThat(bidIds).hasSize(bids);
        eventually(() -> fake.received(4).size() == bids);
        assertThat(fake.received(4).stream().map(FakePacer.Received::requestId).collect(Collectors.toSet())).isEqualTo(bidIds);
        fake.resume();
        eventually(() -> client.stats().get(ClientStats.Count.LATE_ANSWERS) >= lateBefore + bids);
        assertThat(answers).hasSize(bids);
    }

    @Test
    void shouldFailSafeBidsInFlightWhenTheConnectionDropsAndNeverSendThemAgain() throws Exception
    {
        final FakePacer fake = fake();
        final PacerClient client = client(to(fake).deadline(Duration.ofSeconds(10))
            .reconnectBackoff(Duration.ofMillis(5), Duration.ofMillis(50)));
        fake.answering(false);
        for (int i = 0; i < 100; i++)
        {
            client.bid(1, 1_000, i);
        }
        eventually(() -> fake.received(1).size() == 100);
        fake.answering(true);
        fake.dropConnections();
        eventually(() -> answers.size() == 100);
        assertThat(answers.values()).allMatch(a -> !a.bid() && a.reason() == ClientReason.CONNECTION_LOST);
        assertThat(client.stats().get(ClientStats.Count.FAILSAFE_CONNECTION_LOST)).isEqualTo(100);

        // back up: each lost bid is released once, and none is sent again
        eventually(() -> fake.received(4).size() == 100);
        assertThat(client.stats().get(ClientStats.Count.RECONNECTS)).isEqualTo(1);
        assertThat(client.bid(2, 1_000).get(10, TimeUnit.SECONDS).bid()).isTrue();
        final List<Long> bidIds = fake.received(1).stream().map(FakePacer.Received::requestId).toList();
        assertThat(new HashSet<>(bidIds)).hasSize(bidIds.size());
        assertThat(fake.received(4).stream().map(FakePacer.Received::requestId).collect(Collectors.toSet()))
            .isEqualTo(new HashSet<>(bidIds.subList(0, 100)));
    }

    @Test
    void shouldWriteNoticesAgainAfterADropUntilThePacerIsKnownToHaveReadThem() throws Exception
    {
        final FakePacer fake = fake();
        final PacerClient client = client(to(fake).deadline(Duration.ofSeconds(10))
            .probeInterval(Duration.ofMillis(5)).reconnectBackoff(Duration.ofMillis(5), Duration.ofMillis(50)));
        // read but never acknowledged: no bid after them is answered
        fake.answering(false);
        for (long i = 1; i <= 50; i++)
        {
            client.win(i, 1, 2_000);
            client.loss(100 + i, 1);
        }
        eventually(() -> fake.received(3).size() == 50 && fake.received(4).size() == 50);
        assertThat(client.pendingNotices()).isEqualTo(100);
        fake.answering(true);
        fake.dropConnections();
        // after the reconnect all 100 are written again, then a probe's answer acknowledges them
        assertThat(client.awaitNoticesAcknowledged(Duration.ofSeconds(10))).isTrue();
        assertThat(fake.received(3)).hasSize(100);
        assertThat(fake.received(4)).hasSize(100);
        assertThat(client.stats().get(ClientStats.Count.NOTICES_RESENT)).isEqualTo(100);
        assertThat(client.stats().get(ClientStats.Count.PROBES)).isPositive();
        assertThat(fake.received(1)).allMatch(r -> r.value() == 0 && r.campaignId() == 0, "only probes were bids");
    }

    @Test
    void shouldAcknowledgeNoticesWithTheAnswerToTheNextBid() throws Exception
    {
        final FakePacer fake = fake();
        final PacerClient client = client(to(fake).deadline(Duration.ofSeconds(10)).probeInterval(Duration.ofSeconds(30)));
        client.win(1, 1, 2_000);
        client.loss(2, 1);
        assertThat(client.pendingNotices()).isEqualTo(2);
        assertThat(client.bid(1, 1_000).get(10, TimeUnit.SECONDS).bid()).isTrue();
        eventually(() -> client.pendingNotices() == 0);
        assertThat(client.stats().get(ClientStats.Count.PROBES)).isZero();
        assertThat(client.stats().get(ClientStats.Count.NOTICES_ACKNOWLEDGED)).isEqualTo(2);
    }

    /** A client of a fake pacer that answers bids for campaign 7 UNKNOWN_CAMPAIGN at once, with a win and a loss written. */
    private PacerClient twoNoticesWithCampaign7OutsideTheIds(final Duration probeInterval) throws Exception
    {
        final FakePacer fake = fake();
        fake.outsideIds(campaignId -> campaignId == 7);
        final PacerClient client = client(to(fake).deadline(Duration.ofSeconds(10)).probeInterval(probeInterval));
        client.win(1, 1, 2_000);
        client.loss(2, 1);
        return client;
    }

    @Test
    void shouldNotTakeAnUnknownCampaignAnswerGivenBeforeTheRingAsProofTheNoticesWereRead() throws Exception
    {
        final PacerClient client = twoNoticesWithCampaign7OutsideTheIds(Duration.ofSeconds(30));
        assertThat(client.bid(7, 1_000).get(10, TimeUnit.SECONDS).reason()).isEqualTo(Reason.UNKNOWN_CAMPAIGN.value());
        assertThat(client.pendingNotices()).as("the pacer may answer it before reading the notices").isEqualTo(2);

        assertThat(client.bid(1, 1_000).get(10, TimeUnit.SECONDS).bid()).isTrue();
        eventually(() -> client.pendingNotices() == 0);
        assertThat(client.stats().get(ClientStats.Count.NOTICES_ACKNOWLEDGED)).isEqualTo(2);
    }

    @Test
    void shouldProbeWhileBidsFlowThatAreAllAnsweredBeforeTheRing() throws Exception
    {
        final PacerClient client = twoNoticesWithCampaign7OutsideTheIds(Duration.ofMillis(20));
        // a bid every millisecond, each answered UNKNOWN_CAMPAIGN: none of them acknowledges
        final long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (client.pendingNotices() > 0 && System.nanoTime() < deadline)
        {
            client.bid(7, 1_000).get(10, TimeUnit.SECONDS);
            Thread.sleep(1);
        }
        assertThat(client.pendingNotices()).isZero();
        assertThat(client.stats().get(ClientStats.Count.PROBES)).isPositive();
    }

    @Test
    void shouldSpaceProbesAProbeIntervalApartWhateverTheirAnswers() throws Exception
    {
        final FakePacer fake = fake();
        fake.overloadProbes(true);
        final PacerClient client = client(to(fake).deadline(Duration.ofSeconds(10)).probeInterval(Duration.ofMillis(50)));
        client.win(1, 1, 2_000);
        eventually(() -> client.stats().get(ClientStats.Count.PROBES) >= 2);
        final long start = System.nanoTime();
        final long before = client.stats().get(ClientStats.Count.PROBES);
        Thread.sleep(500);
        final long elapsedMillis = (System.nanoTime() - start) / 1_000_000;
        assertThat(client.stats().get(ClientStats.Count.PROBES) - before).as("at most one a 50 ms interval")
            .isLessThanOrEqualTo(elapsedMillis / 50 + 1);
        assertThat(client.pendingNotices()).as("an OVERLOADED answer acknowledges nothing").isEqualTo(1);
    }

    @Test
    void shouldRouteCampaignsByThePartitionMapAndFailOverWhenANodeIsDown() throws Exception
    {
        final FakePacer even = fake();
        final FakePacer odd = fake();
        final PacerClient split = client(to(even, odd).deadline(Duration.ofSeconds(10)).partitionMap(PartitionMap.partitioned()));
        for (long campaign = 0; campaign < 10; campaign++)
        {
            assertThat(split.bid(campaign, 1_000).get(10, TimeUnit.SECONDS).bid()).isTrue();
        }
        assertThat(even.received(1)).hasSize(5).allMatch(r -> r.campaignId() % 2 == 0);
        assertThat(odd.received(1)).hasSize(5).allMatch(r -> r.campaignId() % 2 == 1);

        final FakePacer down = new FakePacer();
        final int downPort = down.port();
        down.close();
        final PacerClient failover = PacerClient.connect(new PacerClient.Context().clientId(8)
            .node("127.0.0.1", downPort).node("127.0.0.1", even.port()).deadline(Duration.ofSeconds(10))
            .closeTimeout(Duration.ZERO));
        open.add(failover);
        eventually(() -> failover.bid(0, 1_000).get(10, TimeUnit.SECONDS).bid());
        assertThat(failover.bid(0, 1_000).get(10, TimeUnit.SECONDS).bid()).as("node 0 down: node 1 answers").isTrue();
    }

    @Test
    void shouldRefuseAtOnceWhenNoNodeIsUp() throws Exception
    {
        final FakePacer down = new FakePacer();
        final int port = down.port();
        down.close();
        final PacerClient client = PacerClient.connect(new PacerClient.Context().node("127.0.0.1", port)
            .closeTimeout(Duration.ZERO));
        open.add(client);
        assertThat(client.bid(1, 1_000, 1)).isEqualTo(-ClientReason.NOT_CONNECTED);
        assertThat(client.bid(1, 1_000).get()).extracting(BidAnswer::failSafe, BidAnswer::reason)
            .containsExactly(true, ClientReason.NOT_CONNECTED);
        assertThat(client.stats().get(ClientStats.Count.FAILSAFE_NOT_CONNECTED)).isEqualTo(2);
        client.close();
        assertThat(client.bid(1, 1_000, 1)).isEqualTo(-ClientReason.CLOSED);
        assertThatThrownBy(() -> client.win(1, 1, 1)).isInstanceOf(IllegalStateException.class);
    }

    @Test
    void shouldRefuseAtOnceABidThatWouldFindTheInFlightTableFullSoThatAHandlerThatBidsAgainCannotLoop() throws Exception
    {
        final FakePacer fake = fake();
        fake.stall();
        final AtomicLong rebidsRefused = new AtomicLong();
        final AtomicLong callbacks = new AtomicLong();
        final PacerClient[] self = new PacerClient[1];
        // every answer, fail-safe ones included, bids again at once: the closed loop of a gateway
        final PacerClient client = PacerClient.connect(to(fake).maxInFlightPerConnection(16).deadline(Duration.ofMillis(50))
            .closeTimeout(Duration.ZERO)
            .answerHandler((correlationId, requestId, campaignId, bid, reason) ->
            {
                callbacks.incrementAndGet();
                if (self[0].bid(campaignId, 1_000, correlationId) < 0)
                {
                    rebidsRefused.incrementAndGet();
                }
            }));
        self[0] = client;
        open.add(client);
        assertThat(client.awaitConnected(Duration.ofSeconds(10))).isTrue();

        // 15 places (one slot stays free for a probe); the rest are refused to the caller at once
        final long[] results = new long[20];
        for (int i = 0; i < results.length; i++)
        {
            results[i] = client.bid(1, 1_000, i);
        }
        assertThat(Arrays.stream(results).filter(r -> r > 0)).hasSize(15);
        assertThat(Arrays.stream(results).filter(r -> r < 0)).hasSize(5).allMatch(r -> r == -ClientReason.BACK_PRESSURED);

        // each time-out frees its place before its callback bids again: the loop goes on at the
        // deadline's pace, never spinning inside a drain
        eventually(() -> callbacks.get() >= 45);
        assertThat(rebidsRefused.get()).isZero();
        assertThat(client.stats().get(ClientStats.Count.BIDS_SENT)).isBetween(callbacks.get(), callbacks.get() + 15);
    }

    @Test
    void shouldSendABidAndANoticeMadeInAnAnswersHandlerOnTheConnectionThatAnswered() throws Exception
    {
        final FakePacer fake = fake();
        final int chains = 8;
        final int links = 50;
        final java.util.Map<Long, Long> chainOfRequest = new ConcurrentHashMap<>();
        final AtomicLong done = new AtomicLong();
        final PacerClient[] self = new PacerClient[1];
        // each chain: a bid; its answer's handler sends a loss and the chain's next bid
        final PacerClient client = PacerClient.connect(to(fake).connectionsPerNode(4).deadline(Duration.ofSeconds(5))
            .closeTimeout(Duration.ofSeconds(5))
            .answerHandler((correlationId, requestId, campaignId, bid, reason) ->
            {
                self[0].loss(requestId, campaignId);
                final long chain = correlationId / links;
                if (correlationId % links == links - 1)
                {
                    done.incrementAndGet();
                    return;
                }
                chainOfRequest.put(self[0].bid(campaignId, 1_000, correlationId + 1), chain);
            }));
        self[0] = client;
        open.add(client);
        assertThat(client.awaitAllConnected(Duration.ofSeconds(10))).isTrue();
        for (int chain = 0; chain < chains; chain++)
        {
            chainOfRequest.put(client.bid(1, 1_000, (long)chain * links), (long)chain);
        }
        eventually(() -> done.get() == chains);
        assertThat(client.awaitNoticesAcknowledged(Duration.ofSeconds(10))).isTrue();

        final java.util.Map<Long, Set<Integer>> connectionsOfChain = new java.util.HashMap<>();
        for (final FakePacer.Received r : fake.received)
        {
            final Long chain = chainOfRequest.get(r.requestId());
            if (chain != null)
            {
                connectionsOfChain.computeIfAbsent(chain, c -> new HashSet<>()).add(r.connection());
            }
        }
        assertThat(connectionsOfChain).hasSize(chains);
        assertThat(connectionsOfChain.values()).as("each chain's bids and losses on one connection")
            .allMatch(connections -> connections.size() == 1);
        assertThat(connectionsOfChain.values().stream().map(c -> c.iterator().next()).distinct().count())
            .as("the first bids spread over the connections").isGreaterThan(1);
    }

    @Test
    void shouldRejectAContextThatCannotWork()
    {
        assertThatThrownBy(() -> PacerClient.connect(new PacerClient.Context()))
            .hasMessageContaining("at least one node");
        assertThatThrownBy(() -> PacerClient.connect(new PacerClient.Context().node("127.0.0.1", 1).clientId(1L << 20)))
            .hasMessageContaining("clientId");
        assertThatThrownBy(() -> PacerClient.connect(new PacerClient.Context().node("127.0.0.1", 1).maxInFlightPerConnection(1000)))
            .hasMessageContaining("power of two");
        assertThatThrownBy(() -> PacerClient.connect(new PacerClient.Context().node("127.0.0.1", 1).deadline(Duration.ZERO)))
            .hasMessageContaining("deadline");
    }
}
