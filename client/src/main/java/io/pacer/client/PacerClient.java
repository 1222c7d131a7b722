package io.pacer.client;

import io.netty.channel.EventLoopGroup;
import io.netty.handler.ssl.SslContext;
import io.pacer.wire.netty.Transport;

import java.net.InetSocketAddress;
import java.security.SecureRandom;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.LongConsumer;

/**
 * A gateway's client for one or more pacer nodes: pipelined bids that always get an answer in
 * time, and win and loss notices delivered at least once.
 *
 * <ul>
 *   <li>{@link #bid(long, long, long)}: the hot path. It allocates nothing; the answer goes to the
 *       {@link BidAnswerHandler} given in the {@link Context}, on an event-loop thread.</li>
 *   <li>{@link #bid(long, long)}: the same, answered through a {@link CompletableFuture}.</li>
 *   <li>Every bid is answered by its deadline. When the pacer is slower, the client answers NO_BID
 *       by itself ({@link ClientReason#DEADLINE_EXCEEDED}) and sends a LossNotice for the request,
 *       so anything the pacer reserves for it when it does answer is released at once.</li>
 *   <li>A bid in flight when its connection drops fails safe ({@link ClientReason#CONNECTION_LOST})
 *       and is never sent again (a resent bid could reserve twice); it is released by a LossNotice
 *       once a connection is back.</li>
 *   <li>{@link #win} and {@link #loss} keep each notice until the pacer is known to have read it
 *       (see {@link ClientSession}), and write it again after a reconnect; the pacer books each
 *       notice once (protocol.md: notices are idempotent).</li>
 * </ul>
 *
 * Request ids are {@code clientId << 43 | sequence}: gateways that share a pacer must have
 * different client ids, since the pacer deduplicates notices by request id.
 *
 * <p>Its {@link Context} is nested, as Aeron's is, and is about half of this file; the protocol
 * state of each connection lives in {@link ClientSession}, its I/O in {@link ClientConnection}.
 */
public final class PacerClient implements AutoCloseable
{
    /** Request ids carry the client id in their top 20 bits. */
    public static final int CLIENT_ID_BITS = 20;
    private static final int SEQUENCE_BITS = 63 - CLIENT_ID_BITS;
    private static final long FUTURE = Long.MIN_VALUE;

    private final Context context;
    private final ClientStats stats = new ClientStats();
    private final EventLoopGroup group;
    private final boolean ownGroup;
    private final NodeLink[] nodes;
    private final List<ClientConnection> connections = new ArrayList<>();
    private final PartitionMap partitions;
    private final BidAnswerHandler handler;
    private final long idBase;
    private final AtomicLong sequence = new AtomicLong();
    private final AtomicLong outstandingNotices = new AtomicLong();
    private final Map<Long, CompletableFuture<BidAnswer>> futures = new ConcurrentHashMap<>();
    private volatile LongConsumer latencyListener;
    private volatile boolean closed;

    private PacerClient(final Context context)
    {
        this.context = context;
        this.partitions = context.partitionMap();
        this.handler = context.answerHandler();
        this.idBase = context.clientId() << SEQUENCE_BITS;
        this.ownGroup = context.eventLoopGroup() == null;
        this.group = ownGroup ? Transport.group(context.ioThreads(), "pacer-client") : context.eventLoopGroup();
        this.nodes = new NodeLink[context.nodes().size()];
        long seed = context.clientId();
        for (int n = 0; n < nodes.length; n++)
        {
            nodes[n] = new NodeLink(context.nodes().get(n));
            final List<ClientConnection> links = new ArrayList<>();
            for (int i = 0; i < context.connectionsPerNode(); i++)
            {
                links.add(new ClientConnection(this, nodes[n], group.next(), context, seed++));
            }
            nodes[n].connections(links);
            connections.addAll(links);
        }
        connections.forEach(ClientConnection::connect);
    }

    /** Starts connecting to every node; bids get {@link ClientReason#NOT_CONNECTED} until one is up. */
    public static PacerClient connect(final Context context)
    {
        return new PacerClient(context.conclude());
    }

    /**
     * Sends a bid request; its answer goes to the context's {@link BidAnswerHandler}. Allocates
     * nothing.
     *
     * @return the request id (positive), or minus a {@link ClientReason} when the bid is refused at
     *         once (no connection, full queue, closed): that is a NO_BID, and the handler is not called
     */
    public long bid(final long campaignId, final long bidCpmMicros, final long correlationId)
    {
        if (correlationId == FUTURE)
        {
            throw new IllegalArgumentException("correlation id Long.MIN_VALUE is reserved");
        }
        return submit(campaignId, bidCpmMicros, correlationId);
    }

    /** Sends a bid request; the future completes with the pacer's answer or a fail-safe NO_BID. */
    public CompletableFuture<BidAnswer> bid(final long campaignId, final long bidCpmMicros)
    {
        final CompletableFuture<BidAnswer> answer = new CompletableFuture<>();
        final long requestId = nextRequestId();
        futures.put(requestId, answer);
        final int refused = route(requestId, campaignId, bidCpmMicros, FUTURE);
        if (refused != 0)
        {
            futures.remove(requestId);
            answer.complete(new BidAnswer(0, campaignId, false, refused));
        }
        return answer;
    }

    private long submit(final long campaignId, final long bidCpmMicros, final long correlationId)
    {
        final long requestId = nextRequestId();
        final int refused = route(requestId, campaignId, bidCpmMicros, correlationId);
        return refused == 0 ? requestId : -refused;
    }

    /** @return 0 when queued, else the fail-safe reason (counted) */
    private int route(final long requestId, final long campaignId, final long bidCpmMicros, final long correlationId)
    {
        final int reason;
        if (closed)
        {
            reason = ClientReason.CLOSED;
        }
        else
        {
            final ClientConnection current = ClientConnection.dispatching();
            final ClientConnection connection = connectionFor(campaignId, requestId, current);
            if (connection == null)
            {
                reason = ClientReason.NOT_CONNECTED;
            }
            else if (!connection.session().admit())
            {
                reason = ClientReason.BACK_PRESSURED;
            }
            else if (connection == current)
            {
                // from an answer's handler on this connection's own loop: written now, flushed
                // with the rest of the read's work, no queue in between
                connection.session().writeBid(requestId, campaignId, bidCpmMicros, correlationId, System.nanoTime());
                return 0;
            }
            else if (!connection.session().offer(ClientSession.BID, requestId, campaignId, bidCpmMicros, correlationId,
                System.nanoTime()))
            {
                connection.session().unadmit();
                reason = ClientReason.BACK_PRESSURED;
            }
            else
            {
                connection.wake();
                return 0;
            }
        }
        stats.failSafe(reason);
        return reason;
    }

    private ClientConnection connectionFor(final long campaignId, final long spread, final ClientConnection current)
    {
        int node;
        for (int attempt = 0; (node = partitions.node(campaignId, attempt, nodes.length)) >= 0; attempt++)
        {
            if (current != null && current.node() == nodes[node] && current.isUp())
            {
                return current;
            }
            final ClientConnection c = nodes[node].pick(spread);
            if (c != null)
            {
                return c;
            }
        }
        return null;
    }

    /** Books a win for a BID this client got: sent at least once, booked once by the pacer. */
    public void win(final long requestId, final long campaignId, final long priceCpmMicros)
    {
        notice(ClientSession.WIN, requestId, campaignId, priceCpmMicros);
    }

    /** Releases a BID this client got that did not win: sent at least once. */
    public void loss(final long requestId, final long campaignId)
    {
        notice(ClientSession.LOSS, requestId, campaignId, 0);
    }

    private void notice(final int type, final long requestId, final long campaignId, final long price)
    {
        if (closed)
        {
            throw new IllegalStateException("the client is closed: the notice for request " + requestId + " was not taken");
        }
        outstandingNotices.incrementAndGet();
        final ClientConnection current = ClientConnection.dispatching();
        final ClientConnection connection = connectionFor(campaignId, requestId, current);
        if (connection != null && connection == current)
        {
            connection.session().notice(type, requestId, campaignId, price, false);
            return;
        }
        if (connection != null && connection.session().offer(type, requestId, campaignId, price, 0, 0))
        {
            connection.wake();
            return;
        }
        final int node = partitions.node(campaignId, 0, nodes.length);
        nodes[Math.max(0, node)].waitForConnection(type, requestId, campaignId, price, false);
    }

    /** Notices taken and not yet known to be read by the pacer. */
    public long pendingNotices()
    {
        return outstandingNotices.get();
    }

    /** Waits until every notice taken so far is known to be read; false if the timeout came first. */
    public boolean awaitNoticesAcknowledged(final Duration timeout) throws InterruptedException
    {
        final long end = System.nanoTime() + timeout.toNanos();
        while (outstandingNotices.get() > 0)
        {
            if (System.nanoTime() >= end)
            {
                return false;
            }
            Thread.sleep(1);
        }
        return true;
    }

    /**
     * Waits until every connection to every node is up; false if the timeout came first. A load
     * run waits for this, so that its traffic starts spread over all of them.
     */
    public boolean awaitAllConnected(final Duration timeout) throws InterruptedException
    {
        final long end = System.nanoTime() + timeout.toNanos();
        for (final ClientConnection c : connections)
        {
            while (!c.isUp())
            {
                if (System.nanoTime() >= end)
                {
                    return false;
                }
                Thread.sleep(1);
            }
        }
        return true;
    }

    /** Waits until at least one connection to every node is up; false if the timeout came first. */
    public boolean awaitConnected(final Duration timeout) throws InterruptedException
    {
        final long end = System.nanoTime() + timeout.toNanos();
        for (final NodeLink node : nodes)
        {
            while (node.pick(0) == null)
            {
                if (System.nanoTime() >= end)
                {
                    return false;
                }
                Thread.sleep(1);
            }
        }
        return true;
    }

    public ClientStats stats()
    {
        return stats;
    }

    /** Receives each answered bid's latency in nanoseconds, on the event loop (for {@link ClientMetrics}). */
    public void latencyListener(final LongConsumer listener)
    {
        this.latencyListener = listener;
    }

    /**
     * Stops taking bids and notices, waits (up to the context's close timeout) for the notices
     * taken to be known read, then closes every connection.
     */
    @Override
    public void close()
    {
        if (closed)
        {
            return;
        }
        closed = true;
        try
        {
            awaitNoticesAcknowledged(context.closeTimeout());
        }
        catch (final InterruptedException ex)
        {
            Thread.currentThread().interrupt();
        }
        for (final ClientConnection c : connections)
        {
            c.closeOnLoop();
        }
        if (ownGroup)
        {
            group.shutdownGracefully(0, 1, TimeUnit.SECONDS).syncUninterruptibly();
        }
    }

    // ---- from the sessions, on event-loop threads ----

    long nextRequestId()
    {
        return idBase | sequence.incrementAndGet();
    }

    void answered(
        final long correlationId, final long requestId, final long campaignId, final boolean bid, final int reason,
        final long latencyNanos)
    {
        stats.increment(bid ? ClientStats.Count.ANSWERED_BID : ClientStats.Count.ANSWERED_NO_BID);
        final LongConsumer latency = latencyListener;
        if (latency != null)
        {
            latency.accept(latencyNanos);
        }
        dispatch(correlationId, requestId, campaignId, bid, reason);
    }

    void failSafe(final long correlationId, final long requestId, final long campaignId, final int reason)
    {
        stats.failSafe(reason);
        dispatch(correlationId, requestId, campaignId, false, reason);
    }

    private void dispatch(
        final long correlationId, final long requestId, final long campaignId, final boolean bid, final int reason)
    {
        if (correlationId == FUTURE)
        {
            final CompletableFuture<BidAnswer> answer = futures.remove(requestId);
            if (answer != null)
            {
                answer.complete(new BidAnswer(requestId, campaignId, bid, reason));
            }
        }
        else
        {
            handler.onAnswer(correlationId, requestId, campaignId, bid, reason);
        }
    }

    void noticeQueued()
    {
        outstandingNotices.incrementAndGet();
    }

    void noticesAcknowledged(final int count)
    {
        outstandingNotices.addAndGet(-count);
    }

    void pacerError(final long requestId, final int code, final int templateId)
    {
        stats.increment(ClientStats.Count.PACER_ERRORS);
    }

    /**
     * What a {@link PacerClient} connects to and how it behaves; checked once by {@link #conclude()}.
     */
    public static final class Context
    {
        private final List<InetSocketAddress> nodes = new ArrayList<>();
        private int connectionsPerNode = 1;
        private PartitionMap partitionMap = PartitionMap.replicated();
        private Duration deadline = Duration.ofMillis(5);
        private Duration sweepInterval = Duration.ofMillis(1).dividedBy(4);
        private Duration probeInterval = Duration.ofMillis(20);
        private Duration reconnectMin = Duration.ofMillis(10);
        private Duration reconnectMax = Duration.ofSeconds(1);
        private Duration connectTimeout = Duration.ofSeconds(1);
        private Duration closeTimeout = Duration.ofSeconds(5);
        private int maxInFlightPerConnection = 1 << 16;
        private int commandQueueBytes = 1 << 20;
        private long clientId = -1;
        private int ioThreads = 1;
        private EventLoopGroup eventLoopGroup;
        private SslContext sslContext;
        private BidAnswerHandler answerHandler;

        /** Adds a pacer node; with several, {@link #partitionMap} says which serves a campaign. */
        public Context node(final String host, final int port)
        {
            nodes.add(new InetSocketAddress(host, port));
            return this;
        }

        public Context node(final InetSocketAddress address)
        {
            nodes.add(address);
            return this;
        }

        /** Connections kept to each node (default 1); bids are spread over those that are up. */
        public Context connectionsPerNode(final int connections)
        {
            this.connectionsPerNode = connections;
            return this;
        }

        /** Which nodes serve a campaign and in what order to fail over (default: replicated). */
        public Context partitionMap(final PartitionMap map)
        {
            this.partitionMap = map;
            return this;
        }

        /** How long a bid waits for the pacer before the client answers NO_BID itself (default 5 ms). */
        public Context deadline(final Duration deadline)
        {
            this.deadline = deadline;
            return this;
        }

        /** How often deadlines are checked (default 250 µs): a fail-safe comes at most this late. */
        public Context sweepInterval(final Duration interval)
        {
            this.sweepInterval = interval;
            return this;
        }

        /**
         * How long notices wait, with no bid answered from the pacer's ring to acknowledge them, before
         * a probe is sent (default 20 ms).
         */
        public Context probeInterval(final Duration interval)
        {
            this.probeInterval = interval;
            return this;
        }

        /** Reconnect backoff: from {@code min}, doubling to {@code max}, with jitter (default 10 ms .. 1 s). */
        public Context reconnectBackoff(final Duration min, final Duration max)
        {
            this.reconnectMin = min;
            this.reconnectMax = max;
            return this;
        }

        public Context connectTimeout(final Duration timeout)
        {
            this.connectTimeout = timeout;
            return this;
        }

        /** How long {@link PacerClient#close()} waits for notices to be known read (default 5 s). */
        public Context closeTimeout(final Duration timeout)
        {
            this.closeTimeout = timeout;
            return this;
        }

        /** Requests in flight per connection, a power of two (default 65,536). */
        public Context maxInFlightPerConnection(final int requests)
        {
            this.maxInFlightPerConnection = requests;
            return this;
        }

        /** Bytes of each connection's command queue, a power of two (default 1 MiB: 21,000 commands). */
        public Context commandQueueBytes(final int bytes)
        {
            this.commandQueueBytes = bytes;
            return this;
        }

        /**
         * This gateway's id, in [1, 2^20): the top bits of its request ids. Gateways sharing a pacer
         * must differ. Default: random.
         */
        public Context clientId(final long id)
        {
            this.clientId = id;
            return this;
        }

        /** Event-loop threads of the client's own group (default 1); ignored with {@link #eventLoopGroup}. */
        public Context ioThreads(final int threads)
        {
            this.ioThreads = threads;
            return this;
        }

        /** Runs the connections on the application's Netty group instead of the client's own. */
        public Context eventLoopGroup(final EventLoopGroup group)
        {
            this.eventLoopGroup = group;
            return this;
        }

        /** TLS to the gateway listener (a client context trusting the pacer's certificate). */
        public Context sslContext(final SslContext context)
        {
            this.sslContext = context;
            return this;
        }

        /** Where {@link PacerClient#bid(long, long, long)}'s answers go. */
        public Context answerHandler(final BidAnswerHandler handler)
        {
            this.answerHandler = handler;
            return this;
        }

        Context conclude()
        {
            require(!nodes.isEmpty(), "at least one node is needed");
            require(connectionsPerNode >= 1 && connectionsPerNode <= 64, "connectionsPerNode must be in [1, 64]");
            require(partitionMap != null, "partitionMap must be set");
            positive(deadline, "deadline");
            positive(sweepInterval, "sweepInterval");
            positive(probeInterval, "probeInterval");
            positive(reconnectMin, "reconnectMin");
            require(reconnectMax != null && reconnectMax.compareTo(reconnectMin) >= 0, "reconnectMax must be >= reconnectMin");
            positive(connectTimeout, "connectTimeout");
            require(closeTimeout != null && !closeTimeout.isNegative(), "closeTimeout must be >= 0");
            require(Integer.bitCount(maxInFlightPerConnection) == 1 && maxInFlightPerConnection >= 16,
                "maxInFlightPerConnection must be a power of two >= 16");
            require(Integer.bitCount(commandQueueBytes) == 1 && commandQueueBytes >= 4096,
                "commandQueueBytes must be a power of two >= 4096");
            require(ioThreads >= 1, "ioThreads must be >= 1");
            if (clientId == -1)
            {
                clientId = 1L + new SecureRandom().nextInt((1 << CLIENT_ID_BITS) - 1);
            }
            require(clientId >= 1 && clientId < 1L << CLIENT_ID_BITS, "clientId must be in [1, 2^20)");
            if (answerHandler == null)
            {
                answerHandler = (correlationId, requestId, campaignId, bid, reason) -> { };
            }
            return this;
        }

        private static void positive(final Duration d, final String name)
        {
            require(d != null && !d.isNegative() && !d.isZero(), name + " must be positive");
        }

        private static void require(final boolean condition, final String message)
        {
            if (!condition)
            {
                throw new IllegalArgumentException(message);
            }
        }

        public List<InetSocketAddress> nodes()
        {
            return List.copyOf(nodes);
        }

        public int connectionsPerNode()
        {
            return connectionsPerNode;
        }

        public PartitionMap partitionMap()
        {
            return partitionMap;
        }

        public Duration deadline()
        {
            return deadline;
        }

        public Duration sweepInterval()
        {
            return sweepInterval;
        }

        public Duration probeInterval()
        {
            return probeInterval;
        }

        public Duration reconnectMin()
        {
            return reconnectMin;
        }

        public Duration reconnectMax()
        {
            return reconnectMax;
        }

        public Duration connectTimeout()
        {
            return connectTimeout;
        }

        public Duration closeTimeout()
        {
            return closeTimeout;
        }

        public int maxInFlightPerConnection()
        {
            return maxInFlightPerConnection;
        }

        public int commandQueueBytes()
        {
            return commandQueueBytes;
        }

        public long clientId()
        {
            return clientId;
        }

        public int ioThreads()
        {
            return ioThreads;
        }

        public EventLoopGroup eventLoopGroup()
        {
            return eventLoopGroup;
        }

        public SslContext sslContext()
        {
            return sslContext;
        }

        public BidAnswerHandler answerHandler()
        {
            return answerHandler;
        }
    }
}
