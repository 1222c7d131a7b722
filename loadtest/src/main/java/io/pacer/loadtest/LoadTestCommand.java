package io.pacer.loadtest;

import io.netty.handler.ssl.SslContext;
import io.netty.handler.ssl.SslContextBuilder;
import io.netty.handler.ssl.util.InsecureTrustManagerFactory;
import io.pacer.model.CampaignDefinition;
import io.pacer.model.CampaignStatus;
import io.pacer.model.PacingMode;
import org.HdrHistogram.HistogramLogWriter;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

import java.io.PrintStream;
import java.net.InetAddress;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;

/** {@code pacer loadtest}: drives a pacer with bid requests and a simulated exchange. */
@Command(
    name = "loadtest",
    mixinStandardHelpOptions = true,
    description = "Load generator and simulated exchange for the gateway protocol. Closed loop (default) keeps "
        + "--in-flight requests outstanding per connection for maximum throughput; --rate switches to open loop, "
        + "measuring latency from each request's intended send time. Every answer is checked; any violation "
        + "makes the exit code 1. Runs are bounded by --duration and --max-requests.",
    exitCodeListHeading = "%nExit codes:%n",
    exitCodeList = {"0:every request answered exactly once, no errors", "1:errors (listed in the report)",
        "2:bad usage"})
public final class LoadTestCommand implements Callable<Integer>
{
    @Option(names = "--host", defaultValue = "127.0.0.1", description = "Gateway host (default: ${DEFAULT-VALUE}).")
    String host;

    @Option(names = "--port", defaultValue = "9400", description = "Gateway port (default: ${DEFAULT-VALUE}).")
    int port;

    @Option(names = {"-c", "--connections"}, defaultValue = "8", description = "Connections (default: ${DEFAULT-VALUE}).")
    int connections;

    @Option(names = {"-w", "--in-flight"}, defaultValue = "16",
        description = "Closed loop: requests outstanding per connection (default: ${DEFAULT-VALUE}).")
    int inFlight;

    @Option(names = "--rate", defaultValue = "0",
        description = "Open loop: total requests per second (default: closed loop).")
    long rate;

    @Option(names = {"-d", "--duration"}, defaultValue = "10s", converter = DurationConverter.class,
        description = "Measured time (default: ${DEFAULT-VALUE}).")
    Duration duration;

    @Option(names = "--warmup", defaultValue = "2s", converter = DurationConverter.class,
        description = "Warm-up, excluded from figures (default: ${DEFAULT-VALUE}).")
    Duration warmup;

    @Option(names = "--max-requests", defaultValue = "1000000000",
        description = "Stop sending after this many requests (default: ${DEFAULT-VALUE}).")
    long maxRequests;

    @Option(names = "--threads", defaultValue = "1", description = "Client event-loop threads (default: ${DEFAULT-VALUE}).")
    int threads;

    @Option(names = "--campaign-base", defaultValue = "1", description = "First campaign id (default: ${DEFAULT-VALUE}).")
    long campaignBase;

    @Option(names = "--campaigns", defaultValue = "1", description = "Campaign ids used (default: ${DEFAULT-VALUE}).")
    int campaigns;

    @Option(names = "--bid-min", defaultValue = "1000000", description = "Smallest bid, CPM micros (default: ${DEFAULT-VALUE}).")
    long bidMin;

    @Option(names = "--bid-max", defaultValue = "1000000", description = "Largest bid, CPM micros (default: ${DEFAULT-VALUE}).")
    long bidMax;

    @Option(names = "--win-rate", defaultValue = "0.3", description = "Share of BIDs that win (default: ${DEFAULT-VALUE}).")
    double winRate;

    @Option(names = "--clearing-min", defaultValue = "0.5",
        description = "A win clears at a uniform share of the bid in [this, 1] (default: ${DEFAULT-VALUE}).")
    double clearingMin;

    @Option(names = "--notice-loss", defaultValue = "0",
        description = "Share of BIDs whose notice is never sent (default: ${DEFAULT-VALUE}).")
    double noticeLoss;

    @Option(names = "--seed", defaultValue = "1", description = "Random seed (default: ${DEFAULT-VALUE}).")
    long seed;

    @Option(names = "--setup", description = "Before the run, PUT the campaigns through this admin URL, e.g. http://127.0.0.1:9401.")
    String adminUrl;

    @Option(names = "--admin-token", defaultValue = "", description = "Bearer token for --setup.")
    String adminToken;

    @Option(names = "--setup-budget-micros", defaultValue = "1000000000000",
        description = "--setup: each campaign's budget (default: ${DEFAULT-VALUE}).")
    long setupBudgetMicros;

    @Option(names = "--setup-flight", defaultValue = "1h", converter = DurationConverter.class,
        description = "--setup: flight length from now (default: ${DEFAULT-VALUE}).")
    Duration setupFlight;

    @Option(names = "--setup-pacing", defaultValue = "ASAP", description = "--setup: EVEN or ASAP (default: ${DEFAULT-VALUE}).")
    PacingMode setupPacing;

    @Option(names = "--tls", description = "Connect to the gateway over TLS.")
    boolean tls;

    @Option(names = "--tls-trust", paramLabel = "PEM",
        description = "With --tls: trust only this certificate (chain); without it any certificate is accepted.")
    Path tlsTrust;

    @Option(names = "--tls-cert", paramLabel = "PEM",
        description = "With --tls: present this client certificate (chain) to a gateway port that asks for one (mutual TLS).")
    Path tlsCert;

    @Option(names = "--tls-key", paramLabel = "PEM", description = "With --tls-cert: its PEM (PKCS#8) private key.")
    Path tlsKey;

    @Option(names = "--engine", defaultValue = "client",
        description = "Closed loop through the client library (client) or the generator's own connections (raw); " +
            "open loop always uses its own (default: ${DEFAULT-VALUE}).")
    String engine;

    @Option(names = "--deadline", defaultValue = "10s", converter = DurationConverter.class,
        description = "--engine client: the library's per-request deadline; an answer later than this fails safe "
            + "and counts as an error (default: ${DEFAULT-VALUE}).")
    Duration deadline;

    @Option(names = "--json", description = "Print the report as one JSON object.")
    boolean json;

    @Option(names = "--hlog", paramLabel = "FILE", description = "Write the latency histogram (nanoseconds) as an HdrHistogram log.")
    Path hlog;

    @Override
    public Integer call() throws Exception
    {
        final PrintStream out = System.out;
        if (!InetAddress.getByName(host).isLoopbackAddress())
        {
            System.err.println("pacer loadtest: warning: " + host + " is not a loopback address");
        }
        final LoadOptions options = LoadOptions.builder()
            .host(host).port(port).connections(connections).threads(threads).inFlight(inFlight).rate(rate)
            .duration(duration).warmup(warmup).maxRequests(maxRequests).campaigns(campaignBase, campaigns)
            .bids(bidMin, bidMax).exchange(winRate, clearingMin, noticeLoss).seed(seed).tls(tlsContext())
            .engine(engine()).clientDeadline(deadline).build();
        if (adminUrl != null)
        {
            final Instant now = Instant.now();
            final List<CampaignDefinition> definitions = new ArrayList<>();
            for (int i = 0; i < campaigns; i++)
            {
                definitions.add(new CampaignDefinition(campaignBase + i, setupBudgetMicros, 0, now.minusSeconds(1),
                    now.plus(setupFlight), ZoneId.of("UTC"), 0, setupPacing, CampaignStatus.ACTIVE));
            }
            new CampaignSetup(adminUrl, adminToken).put(definitions);
        }
        final LoadReport report = new LoadGenerator(options).run();
        out.println(json ? report.toJson() : report.toText());
        if (hlog != null)
        {
            try (PrintStream file = new PrintStream(hlog.toFile(), java.nio.charset.StandardCharsets.UTF_8))
            {
                final HistogramLogWriter writer = new HistogramLogWriter(file);
                writer.outputLogFormatVersion();
                writer.outputLegend();
                writer.outputIntervalHistogram(report.histogram());
            }
        }
        return report.clean() ? 0 : 1;
    }

    private LoadOptions.Engine engine()
    {
        for (final LoadOptions.Engine e : LoadOptions.Engine.values())
        {
            if (e.name().equalsIgnoreCase(engine))
            {
                return e;
            }
        }
        throw new picocli.CommandLine.ParameterException(new picocli.CommandLine(this),
            "--engine must be client or raw, was " + engine);
    }

    private SslContext tlsContext() throws javax.net.ssl.SSLException
    {
        if (!tls)
        {
            return null;
        }
        final SslContextBuilder builder = SslContextBuilder.forClient();
        if (tlsCert != null)
        {
            if (tlsKey == null)
            {
                throw new picocli.CommandLine.ParameterException(new picocli.CommandLine(this), "--tls-cert needs --tls-key");
            }
            builder.keyManager(tlsCert.toFile(), tlsKey.toFile());
        }
        return (tlsTrust == null ? builder.trustManager(InsecureTrustManagerFactory.INSTANCE) :
            builder.trustManager(tlsTrust.toFile())).build();
    }

    /** Parses 500ms, 10s, 2m, 1h, or ISO-8601 (PT10S). */
    public static final class DurationConverter implements picocli.CommandLine.ITypeConverter<Duration>
    {
        @Override
        public Duration convert(final String value)
        {
            final String v = value.trim().toLowerCase(java.util.Locale.ROOT);
            if (v.startsWith("pt"))
            {
                return Duration.parse(value);
            }
            if (v.endsWith("ms"))
            {
                return Duration.ofMillis(Long.parseLong(v.substring(0, v.length() - 2)));
            }
            final long n = Long.parseLong(v.substring(0, v.length() - 1));
            return switch (v.charAt(v.length() - 1))
            {
                case 's' -> Duration.ofSeconds(n);
                case 'm' -> Duration.ofMinutes(n);
                case 'h' -> Duration.ofHours(n);
                default -> throw new IllegalArgumentException("not a duration: " + value + " (use 500ms, 10s, 2m, 1h)");
            };
        }
    }
}
