package io.pacer.loadtest;

import io.netty.handler.ssl.SslContext;
import java.time.Duration;

/**
 * What a load run does. Closed loop keeps {@link #inFlight} requests outstanding per connection;
 * open loop sends {@link #ratePerSecond} requests a second in total, whatever the answers do.
 *
 * @param host             server address (loopback by default)
 * @param port             gateway port
 * @param connections      TCP connections
 * @param threads          client event-loop threads
 * @param inFlight         closed loop: requests outstanding per connection
 * @param ratePerSecond    open loop when > 0: total target rate
 * @param duration         measured time, after warm-up
 * @param warmup           time whose answers are checked but not measured
 * @param maxRequests      stop sending after this many requests (all connections)
 * @param campaignBase     first campaign id used
 * @param campaigns        campaign ids used: [base, base + campaigns)
 * @param bidMinCpmMicros  smallest bid
 * @param bidMaxCpmMicros  largest bid
 * @param winRate          share of BIDs that win (simulated exchange); the rest lose
 * @param clearingMinRatio a win clears at a uniform share of the bid in [ratio, 1]
 * @param noticeLossShare  share of BIDs whose notice is never sent
 * @param seed             random seed (bids, campaigns, wins)
 * @param drainTimeout     how long to wait for outstanding answers at the end
 * @param tls              client TLS context for a gateway listener with TLS, or null
 * @param engine           closed loop: through the client library, or on the generator's own
 *                         connections (open loop always uses its own: see {@link Engine})
 * @param clientDeadline   through the client library: its per-request deadline (a throughput
 *                         run wants it long, so that it only catches a lost answer)
 */
public record LoadOptions(
    String host,
    int port,
    int connections,
    int threads,
    int inFlight,
    long ratePerSecond,
    Duration duration,
    Duration warmup,
    long maxRequests,
    long campaignBase,
    int campaigns,
    long bidMinCpmMicros,
    long bidMaxCpmMicros,
    double winRate,
    double clearingMinRatio,
    double noticeLossShare,
    long seed,
    Duration drainTimeout,
    SslContext tls,
    Engine engine,
    Duration clientDeadline)
{
    /** What sends the requests of a closed-loop run. */
    public enum Engine
    {
        /**
         * {@code io.pacer.client.PacerClient}, as a gateway would. Open-loop runs do not use it: they
         * measure each answer from the request's intended send time, and the library's own deadline
         * and queueing would hide the server's stalls behind fail-safe answers.
         */
        CLIENT,
        /** The generator's own pipelined connections: the raw protocol, nothing in between. */
        RAW
    }

    public LoadOptions
    {
        require(connections >= 1 && connections <= 4095, "connections must be in [1, 4095]");
        require(threads >= 1, "threads must be >= 1");
        require(inFlight >= 1 && inFlight <= LoadConnection.WINDOW / 2, "in-flight must be in [1, " + LoadConnection.WINDOW / 2 + "]");
        require(ratePerSecond >= 0, "rate must be >= 0");
        require(!duration.isNegative() && !duration.isZero(), "duration must be positive");
        require(!warmup.isNegative(), "warm-up must be >= 0");
        require(maxRequests >= 1, "max-requests must be >= 1");
        require(campaigns >= 1, "campaigns must be >= 1");
        require(bidMinCpmMicros >= 1 && bidMaxCpmMicros >= bidMinCpmMicros, "need 1 <= bid-min <= bid-max");
        require(winRate >= 0 && winRate <= 1, "win-rate must be in [0, 1]");
        require(clearingMinRatio >= 0 && clearingMinRatio <= 1, "clearing-min must be in [0, 1]");
        require(noticeLossShare >= 0 && noticeLossShare <= 1, "notice-loss must be in [0, 1]");
    }

    private static void require(final boolean condition, final String message)
    {
        if (!condition)
        {
            throw new IllegalArgumentException(message);
        }
    }

    public boolean openLoop()
    {
        return ratePerSecond > 0;
    }

    /** Whether this run goes through the client library: closed loop with {@link Engine#CLIENT}. */
    public boolean viaClient()
    {
        return !openLoop() && engine == Engine.CLIENT;
    }

    /** Starts from defaults: loopback:9400, 8 connections x 16 in flight, closed loop, 10 s. */
    public static Builder builder()
    {
        return new Builder();
    }

    /** Fluent construction; every value starts at its command-line default. */
    public static final class Builder
    {
        private String host = "127.0.0.1";
        private int port = 9400;
        private int connections = 8;
        private int threads = 1;
        private int inFlight = 16;
        private long rate;
        private Duration duration = Duration.ofSeconds(10);
        private Duration warmup = Duration.ofSeconds(2);
        private long maxRequests = 1_000_000_000L;
        private long campaignBase = 1;
        private int campaigns = 1;
        private long bidMin = 1_000_000;
        private long bidMax = 1_000_000;
        private double winRate = 0.3;
        private double clearingMin = 0.5;
        private double noticeLoss;
        private long seed = 1;
        private Duration drainTimeout = Duration.ofSeconds(5);
        private SslContext tls;
        private Engine engine = Engine.CLIENT;
        // this 2-core VM has shown whole-host pauses of 1 to 4 s, the raw engine's runs included
        private Duration clientDeadline = Duration.ofSeconds(10);

        public Builder host(final String v)
        {
            host = v;
            return this;
        }

        public Builder port(final int v)
        {
            port = v;
            return this;
        }

        public Builder connections(final int v)
        {
            connections = v;
            return this;
        }

        public Builder threads(final int v)
        {
            threads = v;
            return this;
        }

        public Builder inFlight(final int v)
        {
            inFlight = v;
            return this;
        }

        /** Total target rate; 0 means closed loop. */
        public Builder rate(final long v)
        {
            rate = v;
            return this;
        }

        public Builder duration(final Duration v)
        {
            duration = v;
            return this;
        }

        public Builder warmup(final Duration v)
        {
            warmup = v;
            return this;
        }

        public Builder maxRequests(final long v)
        {
            maxRequests = v;
            return this;
        }

        public Builder campaigns(final long base, final int count)
        {
            campaignBase = base;
            campaigns = count;
            return this;
        }

        public Builder bids(final long minCpmMicros, final long maxCpmMicros)
        {
            bidMin = minCpmMicros;
            bidMax = maxCpmMicros;
            return this;
        }

        public Builder exchange(final double winShare, final double clearingMinRatio, final double noticeLossShare)
        {
            winRate = winShare;
            clearingMin = clearingMinRatio;
            noticeLoss = noticeLossShare;
            return this;
        }

        public Builder seed(final long v)
        {
            seed = v;
            return this;
        }

        public Builder drainTimeout(final Duration v)
        {
            drainTimeout = v;
            return this;
        }

        /** Connects over TLS with this client context. */
        public Builder tls(final SslContext v)
        {
            tls = v;
            return this;
        }

        /** Closed loop through the client library (default) or raw connections. */
        public Builder engine(final Engine v)
        {
            engine = v;
            return this;
        }

        /** Through the client library: its per-request deadline (default 10 s). */
        public Builder clientDeadline(final Duration v)
        {
            clientDeadline = v;
            return this;
        }

        public LoadOptions build()
        {
            return new LoadOptions(host, port, connections, threads, inFlight, rate, duration, warmup, maxRequests,
                campaignBase, campaigns, bidMin, bidMax, winRate, clearingMin, noticeLoss, seed, drainTimeout, tls, engine,
                clientDeadline);
        }
    }
}
