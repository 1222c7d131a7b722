package io.pacer.bench;

import io.pacer.pipeline.journal.JournalReader;
import io.pacer.pipeline.journal.JournalReplay;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

import java.nio.file.Path;
import java.util.concurrent.TimeUnit;

/**
 * One whole replay of a recorded journal into fresh shards, as {@code pacer replay} runs it but
 * with no JVM start and no report: the time from the first record read to the last applied. Give
 * the journal with {@code -p journal=DIR} (record one with a load run against a server whose
 * {@code pacer.journal.dir} is DIR). What {@code pacer replay} adds to this is the JVM's start,
 * the compilation of the code while it runs, and the audit report. The fork runs on the
 * throughput collector, as {@code bin/pacer replay} does; a collector named in
 * {@code JAVA_TOOL_OPTIONS} or {@code -jvmArgs} as well stops the fork from starting (two
 * collectors), and {@code -jvmArgsAppend} on the command line replaces these options (give the
 * module opening again).
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.SingleShotTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@Warmup(iterations = 1)
@Measurement(iterations = 5)
@Fork(value = 1, jvmArgsAppend = {"--add-opens=java.base/jdk.internal.misc=ALL-UNNAMED", "-Xmx4g", "-XX:+UseParallelGC"})
public class ReplayBenchmark
{
    @Param({""})
    public String journal;

    /** @return the events replayed */
    @Benchmark
    public long replay()
    {
        final JournalReplay replay = JournalReplay.ofJournal(new JournalReader(Path.of(journal)), JournalReplay.Observer.NONE);
        if (replay == null || replay.mismatches() != 0)
        {
            throw new IllegalStateException("the replay did not re-make every decision");
        }
        return replay.events();
    }
}
