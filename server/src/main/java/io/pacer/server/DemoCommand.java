package io.pacer.server;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.json.JsonMapper;
import io.pacer.loadtest.CampaignSetup;
import io.pacer.loadtest.LoadGenerator;
import io.pacer.loadtest.LoadOptions;
import io.pacer.loadtest.LoadReport;
import io.pacer.model.CampaignDefinition;
import io.pacer.model.CampaignStatus;
import io.pacer.model.PacingMode;
import io.pacer.pipeline.PacerThreads;
import io.pacer.server.config.PacerConfig;
import io.pacer.server.demo.SpendChart;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.FutureTask;

/**
 * {@code pacer demo}: a pacer on the embedded defaults (ephemeral ports, a temporary directory),
 * three campaigns with short flights, driven by the simulated exchange; prints throughput,
 * latency and each campaign's spend against its plan, and writes a chart.
 */
@Command(
    name = "demo",
    mixinStandardHelpOptions = true,
    description = "Starts a pacer on its embedded defaults with three short-flight campaigns (EVEN, ASAP, EVEN under "
        + "a daily cap), drives it with the simulated exchange, prints throughput, latency percentiles and each "
        + "campaign's spend against its plan, and writes an HTML chart of spend over time.")
final class DemoCommand implements java.util.concurrent.Callable<Integer>
{
    private static final long BUDGET_MICROS = 10_000_000;

    @Option(names = "--flight", defaultValue = "30s", converter = io.pacer.loadtest.LoadTestCommand.DurationConverter.class,
        description = "Flight length (default: ${DEFAULT-VALUE}).")
    Duration flight;

    @Option(names = "--rate", defaultValue = "22500",
        description = "Bid requests per second, open loop; the default is 5x what an EVEN campaign needs (default: ${DEFAULT-VALUE}).")
    long rate;

    @Option(names = "--out", description = "Where to write the chart (default: a temporary directory).")
    Path chartFile;

    @Override
    public Integer call() throws Exception
    {
        final Path home = Files.createTempDirectory("pacer-demo");
        final Path campaignsFile = home.resolve("campaigns.json");
        Files.writeString(campaignsFile, "{\"campaigns\":[]}");
        final Map<String, Object> overrides = new HashMap<>();
        overrides.put("pacer.home", home.toString());
        overrides.put("pacer.gateway.port", 0);
        overrides.put("pacer.admin.port", 0);
        overrides.put("pacer.campaigns.file", campaignsFile.toString());
        overrides.put("pacer.journal.dir", home.resolve("journal").toString());
        overrides.put("pacer.pacing.replan-interval", "250ms");
        final PacerConfig config = PacerConfig.embedded(overrides);
        System.out.println("pacer demo: a pacer on its embedded defaults, working directory " + home);

        try (PacerServer server = new PacerServer(config).start())
        {
            final String admin = "http://127.0.0.1:" + server.adminAddress().getPort();
            final CampaignSetup setup = new CampaignSetup(admin, "");
            final Instant start = Instant.now().plusMillis(500);
            final Instant end = start.plus(flight);
            final List<CampaignDefinition> campaigns = List.of(
                campaign(1, 0, PacingMode.EVEN, start, end),
                campaign(2, 0, PacingMode.ASAP, start, end),
                campaign(3, BUDGET_MICROS / 2, PacingMode.EVEN, start, end));
            setup.put(campaigns);
            System.out.printf(Locale.ROOT, "campaigns: 1 EVEN, 2 ASAP, 3 EVEN with a daily cap of half its budget; "
                + "budget %.2f each; flight %d s; %,d bid requests/s, 30%% wins%n", BUDGET_MICROS / 1e6, flight.toSeconds(), rate);

            final LoadOptions load = LoadOptions.builder().port(server.gatewayAddress().getPort()).connections(4)
                .rate(rate).duration(flight.plusMillis(500)).warmup(Duration.ZERO).campaigns(1, 3)
                .bids(500_000, 1_500_000).exchange(0.3, 0.5, 0.0).build();
            // on a thread of the pacer's own (named, daemon), not the JVM's common pool
            final FutureTask<LoadReport> run = new FutureTask<>(() -> new LoadGenerator(load).run());
            PacerThreads.thread("pacer-demo-load", run).start();
            final Map<Long, List<long[]>> samples = sample(setup, campaigns, start, end);
            final LoadReport report = loadReport(run);
            System.out.println();
            System.out.print(report.toText());
            System.out.println();
            final List<SpendChart.Series> series = summarize(setup, campaigns, samples, start);
            final Path chart = chartFile != null ? chartFile : home.resolve("pacing.html");
            SpendChart.write(chart, "pacer demo: spend against plan", flight.toMillis() / 1000.0, series);
            System.out.println("chart: " + chart.toAbsolutePath());
            return report.clean() ? 0 : 1;
        }
    }

    /** The load run's report once it has finished; its failure is rethrown as it was thrown. */
    private static LoadReport loadReport(final FutureTask<LoadReport> run) throws Exception
    {
        try
        {
            return run.get();
        }
        catch (final ExecutionException ex)
        {
            throw ex.getCause() instanceof Exception cause ? cause : ex;
        }
    }

    private static CampaignDefinition campaign(
        final long id, final long dailyMicros, final PacingMode pacing, final Instant start, final Instant end)
    {
        return new CampaignDefinition(id, BUDGET_MICROS, dailyMicros, start, end, ZoneId.of("UTC"), 0, pacing,
            CampaignStatus.ACTIVE);
    }

    /** Every 250 ms until the flight ends: (millis since start, spent micros) per campaign. */
    private static Map<Long, List<long[]>> sample(
        final CampaignSetup setup, final List<CampaignDefinition> campaigns, final Instant start, final Instant end)
        throws Exception
    {
        final Map<Long, List<long[]>> samples = new HashMap<>();
        campaigns.forEach(c -> samples.put(c.id(), new ArrayList<>()));
        while (Instant.now().isBefore(end.plusMillis(500)))
        {
            for (final CampaignDefinition c : campaigns)
            {
                final JsonNode state = JsonMapper.builder().build().readTree(setup.state(c.id()));
                samples.get(c.id()).add(new long[] {Instant.now().toEpochMilli() - start.toEpochMilli(),
                    state.get("spentMicros").asLong()});
            }
            Thread.sleep(250);
        }
        return samples;
    }

    /**
     * Root mean square error of the spend in each one-second slot of the flight against the plan's
     * spend per slot, as a share of the plan per slot (Yahoo's smoothness measure).
     */
    private static double slotRmse(final List<long[]> points, final long planTotalMicros, final double flightMillis)
    {
        final int slots = (int)Math.floor(flightMillis / 1000);
        if (slots < 1)
        {
            return Double.NaN;
        }
        final double planPerSlot = planTotalMicros / (flightMillis / 1000);
        double sumSquares = 0;
        for (int slot = 0; slot < slots; slot++)
        {
            final double spentInSlot = spentAt(points, (slot + 1) * 1000L) - spentAt(points, slot * 1000L);
            sumSquares += (spentInSlot - planPerSlot) * (spentInSlot - planPerSlot);
        }
        return Math.sqrt(sumSquares / slots) / planPerSlot;
    }

    /** Spend at {@code millis}, interpolated between samples. */
    private static double spentAt(final List<long[]> points, final long millis)
    {
        long[] before = {0, 0};
        for (final long[] p : points)
        {
            if (p[0] >= millis)
            {
                final double span = p[0] - before[0];
                return span <= 0 ? p[1] : before[1] + (p[1] - before[1]) * (millis - before[0]) / span;
            }
            before = p;
        }
        return before[1];
    }

    private static List<SpendChart.Series> summarize(
        final CampaignSetup setup, final List<CampaignDefinition> campaigns, final Map<Long, List<long[]>> samples,
        final Instant start) throws Exception
    {
        final double flightMillis = campaigns.get(0).end().toEpochMilli() - start.toEpochMilli();
        System.out.println("campaign  pacing          budget     spent   delivery  plan    max deviation from plan"
            + "  slot RMSE  late wins");
        final List<SpendChart.Series> series = new ArrayList<>();
        for (final CampaignDefinition c : campaigns)
        {
            final JsonNode state = JsonMapper.builder().build().readTree(setup.state(c.id()));
            final long spent = state.get("spentMicros").asLong();
            final long planTotal = c.pacing() == PacingMode.ASAP ? 0 :
                c.hasDailyCap() ? c.dailyBudgetMicros() : c.budgetMicros();
            double maxDeviation = 0;
            final List<long[]> points = samples.get(c.id());
            final double[] seconds = new double[points.size()];
            final long[] spentSeries = new long[points.size()];
            for (int i = 0; i < points.size(); i++)
            {
                final long[] p = points.get(i);
                seconds[i] = p[0] / 1000.0;
                spentSeries[i] = p[1];
                if (planTotal > 0)
                {
                    final double plan = planTotal * Math.min(1, Math.max(0, p[0] / flightMillis));
                    maxDeviation = Math.max(maxDeviation, Math.abs(p[1] - plan) / planTotal);
                }
            }
            final String label = c.pacing() + (c.hasDailyCap() ? " daily cap" : "");
            final double rmse = planTotal > 0 ? slotRmse(points, planTotal, flightMillis) : Double.NaN;
            System.out.printf(Locale.ROOT, "%8d  %-14s %7.2f  %8.2f  %7.1f%%  %-6s  %s  %9s  %9d%n", c.id(), label,
                c.budgetMicros() / 1e6, spent / 1e6, 100.0 * spent / (planTotal > 0 ? planTotal : c.budgetMicros()),
                planTotal > 0 ? String.format(Locale.ROOT, "%.2f", planTotal / 1e6) : "none",
                planTotal > 0 ? String.format(Locale.ROOT, "%22.1f%% of plan", 100 * maxDeviation) : String.format("%31s", "-"),
                planTotal > 0 ? String.format(Locale.ROOT, "%.1f%%", 100 * rmse) : "-",
                state.get("lateWins").asLong());
            series.add(new SpendChart.Series("campaign " + c.id() + ": " + label, c.budgetMicros(), planTotal, seconds, spentSeries));
        }
        return series;
    }
}
