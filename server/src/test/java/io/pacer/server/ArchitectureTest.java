package io.pacer.server;

import com.tngtech.archunit.base.DescribedPredicate;
import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.domain.JavaCall;
import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.domain.JavaMethodCall;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.lang.ArchRule;
import com.tngtech.archunit.lang.EvaluationResult;
import org.junit.jupiter.api.Test;

import java.util.Set;

import static com.tngtech.archunit.base.DescribedPredicate.not;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static com.tngtech.archunit.library.Architectures.layeredArchitecture;
import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * The layering and determinism rules of the code base, checked on the compiled classes of every
 * module (ArchUnit). Each rule that a tired change could break quietly is also shown to fail on a
 * planted violation ({@code io.pacer.archfixture}, test sources only).
 */
class ArchitectureTest
{
    private static final JavaClasses PRODUCTION = new ClassFileImporter()
        .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
        .withImportOption(location -> !location.contains("/io/pacer/archfixture/"))
        .importPackages("io.pacer");
    private static final JavaClasses PLANTED = new ClassFileImporter().importPackages("io.pacer.archfixture");

    /** Classes of the pipeline that may read a clock, each for a reason given in its own javadoc. */
    private static final Set<String> PIPELINE_CLOCK_READERS = Set.of(
        "io.pacer.pipeline.PacerPipeline",            // stamps each event's ingress time: the only time a handler sees
        "io.pacer.pipeline.RingDrainer",              // the queue deadline: monotonic time at a batch's start
        "io.pacer.pipeline.PacingHandler",            // the same, in dedicated threading
        "io.pacer.pipeline.journal.JournalRecovery",  // logs how long recovery took
        "io.pacer.cluster.ClusterIngress");           // numbers a node's batches from its start time (not pacing state)

    private static final Set<String> PIPELINE_INTERNALS = Set.of(
        "io.pacer.pipeline.PacerEvent", "io.pacer.pipeline.PacingHandler", "io.pacer.pipeline.RingDrainer");

    private static final Set<String> RANDOMNESS = Set.of(
        "java.util.Random", "java.util.SplittableRandom", "java.util.concurrent.ThreadLocalRandom",
        "java.security.SecureRandom");

    private static final Set<String> DATES = Set.of(
        "java.time.Instant", "java.time.LocalDate", "java.time.LocalDateTime", "java.time.LocalTime",
        "java.time.ZonedDateTime", "java.time.OffsetDateTime", "java.time.OffsetTime", "java.time.Clock",
        "java.time.Year", "java.time.YearMonth", "java.time.MonthDay");

    private static final DescribedPredicate<JavaMethodCall> READS_CLOCK_OR_ENVIRONMENT =
        DescribedPredicate.describe("read a clock or the environment", call ->
        {
            final String owner = call.getTargetOwner().getName();
            final String name = call.getName();
            if (owner.equals("java.lang.System"))
            {
                return Set.of("currentTimeMillis", "nanoTime", "getenv", "getProperty", "getProperties").contains(name);
            }
            if (owner.equals("java.lang.Math") || owner.equals("java.lang.StrictMath"))
            {
                return name.equals("random");
            }
            if (owner.equals("java.util.UUID"))
            {
                return name.equals("randomUUID");
            }
            return DATES.contains(owner) && (name.equals("now") || name.startsWith("system"));
        });

    private static final DescribedPredicate<JavaMethodCall> READS_CLOCK =
        DescribedPredicate.describe("read the wall or monotonic clock", call ->
            (call.getTargetOwner().getName().equals("java.lang.System") &&
                (call.getName().equals("currentTimeMillis") || call.getName().equals("nanoTime"))) ||
                (DATES.contains(call.getTargetOwner().getName()) && call.getName().equals("now")));

    static ArchRule pure(final String... packages)
    {
        return noClasses().that().resideInAnyPackage(packages)
            .should().callMethodWhere(READS_CLOCK_OR_ENVIRONMENT)
            .orShould().dependOnClassesThat(named(RANDOMNESS, "are sources of randomness"))
            .orShould().dependOnClassesThat().resideInAnyPackage("io.netty..", "com.lmax.disruptor..")
            .because("the model is pure: same input sequence, same output; time comes only from the event");
    }

    static ArchRule noHashOrder(final Set<String> exempt, final String... packages)
    {
        return noClasses().that().resideInAnyPackage(packages).and(not(named(exempt, "exempt")))
            .should().dependOnClassesThat(named(Set.of("java.util.HashMap", "java.util.HashSet"), "hash-ordered collections"))
            .because("iterating one leaks an order that can change output; use Agrona's maps, TreeMap or LinkedHashMap");
    }

    static ArchRule independentOfServer(final String... packages)
    {
        return noClasses().that().resideInAnyPackage(packages)
            .should().dependOnClassesThat().resideInAPackage("io.pacer.server..")
            .because("a gateway adopts the client (and a load run the generator) without the server");
    }

    @Test
    void shouldCheckTheClassesOfEveryModule()
    {
        for (final String name : new String[] {"io.pacer.units.Units", "io.pacer.wire.FrameParser", "io.pacer.model.PacingShard",
            "io.pacer.pipeline.RingDrainer", "io.pacer.cluster.PacerState", "io.pacer.monitoring.PacerMetrics", "io.pacer.client.PacerClient",
            "io.pacer.loadtest.LoadGenerator", "io.pacer.server.PacerServer"})
        {
            assertThat(PRODUCTION.contain(name)).as(name).isTrue();
        }
        assertThat(PRODUCTION.contain("io.pacer.archfixture.model.ReadsTheClock")).isFalse();
    }

    @Test
    void shouldKeepTheModelFreeOfClocksRandomnessEnvironmentNettyAndTheDisruptor()
    {
        pure("io.pacer.model..", "io.pacer.wire", "io.pacer.units..").check(PRODUCTION);
    }

    static ArchRule clocksOnlyWhereDocumented(final String packages)
    {
        return noClasses().that().resideInAPackage(packages).and(not(named(PIPELINE_CLOCK_READERS, "documented readers")))
            .should().callMethodWhere(READS_CLOCK)
            .because("handlers take time from the event, so that replay decides the same");
    }

    @Test
    void shouldReadClocksInThePipelineOnlyWhereDocumented()
    {
        clocksOnlyWhereDocumented("io.pacer.pipeline..").check(PRODUCTION);
    }

    @Test
    void shouldTakeTheClusterServicesTimeOnlyFromTheLog()
    {
        // every member must decide alike: the service's time is the log's timestamps and timers
        clocksOnlyWhereDocumented("io.pacer.cluster..").check(PRODUCTION);
        noHashOrder(Set.of(), "io.pacer.cluster..").check(PRODUCTION);
    }

    @Test
    void shouldKeepHashOrderOutOfTheModelAndThePipeline()
    {
        // the parser only asks a HashSet whether an id was seen: it never iterates it
        noHashOrder(Set.of("io.pacer.model.CampaignDefinitionParser"), "io.pacer.model..", "io.pacer.pipeline..")
            .check(PRODUCTION);
    }

    @Test
    void shouldKeepTheRingsEventAndHandlersInsideThePipeline()
    {
        // metrics read shards through ShardView and decisions as primitives; recovery gets the
        // shards' state from PacerPipeline.shardStates(); cluster mode's ingress is the ring's
        // consumer in place of the handlers (a RingConsumer)
        noClasses().that().resideOutsideOfPackages("io.pacer.pipeline..", "io.pacer.cluster..")
            .should().dependOnClassesThat(named(PIPELINE_INTERNALS, "the ring's event and consumers"))
            .check(PRODUCTION);
    }

    @Test
    void shouldApplyInputsToShardsOnlyInThePipelineAndInOfflineReplays()
    {
        // PacingStep drives a shard directly: the ring's handlers and replay do, the audit's
        // what-if replay on shards of its own, and cluster mode's service in log order; the
        // running server never does outside the ring or the log
        noClasses().that().resideOutsideOfPackages("io.pacer.pipeline..", "io.pacer.server.audit..", "io.pacer.cluster..")
            .should().dependOnClassesThat(named(Set.of("io.pacer.pipeline.PacingStep"), "the step that drives a shard"))
            .check(PRODUCTION);
    }

    @Test
    void shouldKeepTheClientAndTheLoadGeneratorIndependentOfTheServer()
    {
        independentOfServer("io.pacer.client..", "io.pacer.loadtest..").check(PRODUCTION);
    }

    @Test
    void shouldLetOnlyTheCommandLineReachTheLoadGenerator()
    {
        noClasses().that().resideInAPackage("io.pacer.server..")
            .and().haveNameNotMatching("io\\.pacer\\.server\\.(PacerCli|DemoCommand)(\\$.*)?")
            .should().dependOnClassesThat().resideInAPackage("io.pacer.loadtest..")
            .because("the running server never needs the load generator: only bin/pacer's loadtest and demo commands do")
            .check(PRODUCTION);
    }

    /**
     * Work handed to the JVM's common pool: an async step of a {@code CompletableFuture} without an
     * executor, the pool itself, or a parallel stream. Its threads are the JVM's, not named
     * pacer-(role) by {@code PacerThreads}, and they are shared with whatever else runs in the JVM.
     */
    private static final DescribedPredicate<JavaMethodCall> RUNS_ON_THE_COMMON_POOL =
        DescribedPredicate.describe("run work on the JVM's common pool", call ->
        {
            final String owner = call.getTargetOwner().getName();
            final String name = call.getName();
            if (owner.equals("java.util.concurrent.CompletableFuture") && name.endsWith("Async"))
            {
                return call.getTarget().getRawParameterTypes().stream()
                    .noneMatch(type -> type.getName().equals("java.util.concurrent.Executor"));
            }
            return (owner.equals("java.util.concurrent.ForkJoinPool") && name.equals("commonPool")) ||
                name.equals("parallelStream") || (name.equals("parallel") && owner.startsWith("java.util.stream."));
        });

    /**
     * A thread made other than through {@code PacerThreads}: a {@code Thread} constructed by hand,
     * or a JDK pool given no thread factory (its threads are named pool-N-thread-M).
     */
    private static final DescribedPredicate<JavaCall<?>> MAKES_A_THREAD_ITSELF =
        DescribedPredicate.describe("make a thread other than through PacerThreads", call ->
        {
            final String owner = call.getTargetOwner().getName();
            final boolean pool = (owner.equals("java.util.concurrent.Executors") && call.getName().startsWith("new")) ||
                ((owner.equals("java.util.concurrent.ThreadPoolExecutor") ||
                    owner.equals("java.util.concurrent.ScheduledThreadPoolExecutor")) && call.getName().equals("<init>"));
            final boolean factoryGiven = call.getTarget().getRawParameterTypes().stream()
                .anyMatch(type -> type.getName().equals("java.util.concurrent.ThreadFactory"));
            return (owner.equals("java.lang.Thread") && call.getName().equals("<init>")) || (pool && !factoryGiven);
        });

    static ArchRule ownThreadsOnly(final String packages)
    {
        return noClasses().that().resideInAPackage(packages).and().doNotHaveFullyQualifiedName("io.pacer.pipeline.PacerThreads")
            .should().callMethodWhere(RUNS_ON_THE_COMMON_POOL)
            .orShould().callCodeUnitWhere(MAKES_A_THREAD_ITSELF)
            .because("every thread the pacer runs work on is its own, named by PacerThreads (ThreadNamesIntegrationTest "
                + "sees the long-lived ones in a running server; this sees every place a thread is made)");
    }

    @Test
    void shouldRunWorkOnlyOnThreadsOfItsOwn()
    {
        ownThreadsOnly("io.pacer..").check(PRODUCTION);
    }

    @Test
    void shouldFailOnPlantedCommonPoolTasksAndThreadsMadeOutsidePacerThreads()
    {
        final EvaluationResult result = ownThreadsOnly("io.pacer.archfixture.server..").evaluate(PLANTED);
        assertThat(result.getFailureReport().getDetails())
            .anyMatch(line -> line.contains("RunsOnTheCommonPool") && line.contains("supplyAsync"))
            .anyMatch(line -> line.contains("RunsOnTheCommonPool") && line.contains("parallelStream"))
            .anyMatch(line -> line.contains("StartsAnUnnamedThread.byHand") && line.contains("Thread.<init>"))
            .anyMatch(line -> line.contains("StartsAnUnnamedThread.pool") && line.contains("newFixedThreadPool"));
    }

    @Test
    void shouldKeepTheConfigurationFreeOfNetty()
    {
        noClasses().that().resideInAPackage("io.pacer.server.config..")
            .should().dependOnClassesThat().resideInAPackage("io.netty..")
            .because("configuration holds values and files; the listeners build their Netty TLS contexts from them")
            .check(PRODUCTION);
    }

    @Test
    void shouldLayerTheModulesOneWay()
    {
        layeredArchitecture().consideringOnlyDependenciesInLayers()
            .layer("Units").definedBy("io.pacer.units..")
            .layer("Wire").definedBy("io.pacer.wire..")
            .layer("Model").definedBy("io.pacer.model..")
            .layer("Pipeline").definedBy("io.pacer.pipeline..")
            .layer("Cluster").definedBy("io.pacer.cluster..")
            .layer("Monitoring").definedBy("io.pacer.monitoring..")
            .layer("Client").definedBy("io.pacer.client..")
            .layer("Loadtest").definedBy("io.pacer.loadtest..")
            .layer("Server").definedBy("io.pacer.server..")
            .whereLayer("Server").mayNotBeAccessedByAnyLayer()
            .whereLayer("Loadtest").mayOnlyBeAccessedByLayers("Server")
            .whereLayer("Client").mayOnlyBeAccessedByLayers("Loadtest", "Server")
            .whereLayer("Monitoring").mayOnlyBeAccessedByLayers("Server")
            .whereLayer("Cluster").mayOnlyBeAccessedByLayers("Server")
            .whereLayer("Pipeline").mayOnlyBeAccessedByLayers("Monitoring", "Cluster", "Server")
            .whereLayer("Model").mayOnlyBeAccessedByLayers("Pipeline", "Monitoring", "Cluster", "Loadtest", "Server")
            .check(PRODUCTION);
        slices().matching("io.pacer.(*)..").should().beFreeOfCycles().check(PRODUCTION);
    }

    @Test
    void shouldFailOnAPlantedClockReadAndAPlantedRandomDraw()
    {
        final EvaluationResult result = pure("io.pacer.archfixture.model..").evaluate(PLANTED);
        assertThat(result.hasViolation()).isTrue();
        assertThat(result.getFailureReport().getDetails())
            .anyMatch(line -> line.contains("ReadsTheClock") && line.contains("System.currentTimeMillis()"))
            .anyMatch(line -> line.contains("DrawsAtRandom") && line.contains("ThreadLocalRandom"));
    }

    @Test
    void shouldFailOnAPlantedHandlerThatReadsTheWallClock()
    {
        final EvaluationResult result = clocksOnlyWhereDocumented("io.pacer.archfixture.pipeline..").evaluate(PLANTED);
        assertThat(result.getFailureReport().getDetails())
            .anyMatch(line -> line.contains("HandlerThatReadsTheClock") && line.contains("System.currentTimeMillis()"));
    }

    @Test
    void shouldFailOnAPlantedHashMapInTheModel()
    {
        final EvaluationResult result = noHashOrder(Set.of(), "io.pacer.archfixture.model..").evaluate(PLANTED);
        assertThat(result.getFailureReport().getDetails()).anyMatch(line -> line.contains("IteratesAHashMap"));
    }

    @Test
    void shouldFailOnAPlantedClientThatReachesIntoTheServer()
    {
        final EvaluationResult result = independentOfServer("io.pacer.archfixture.client..").evaluate(PLANTED);
        assertThat(result.getFailureReport().getDetails())
            .anyMatch(line -> line.contains("ReachesIntoTheServer") && line.contains("io.pacer.server.PacerServer"));
    }

    private static DescribedPredicate<JavaClass> named(final Set<String> names, final String description)
    {
        return DescribedPredicate.describe(description, c -> names.contains(c.getName()));
    }
}
