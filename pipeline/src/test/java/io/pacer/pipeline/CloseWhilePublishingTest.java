package io.pacer.pipeline;

import io.pacer.model.CampaignDefinition;
import io.pacer.model.CampaignStatus;
import io.pacer.model.PacingMode;
import io.pacer.model.PacingPolicy;
import io.pacer.pipeline.journal.JournalReader;
import io.pacer.pipeline.journal.JournalReplay;
import io.pacer.pipeline.journal.JournalWriter;
import io.pacer.pipeline.journal.WritingJournaler;
import org.agrona.concurrent.SystemEpochClock;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.time.ZoneId;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Closing the pipeline while a producer is still publishing (a gateway loop finishing the frames
 * it had read when intake stopped): the journal is closed only once nothing appends to it any
 * more, so it reads back whole, every record in sequence, and replays without a mismatch; and once
 * the close has returned, no file of the journal is open (on Linux, where /proc/self/fd says so).
 */
class CloseWhilePublishingTest
{
    private static final int ROUNDS = Integer.getInteger("rounds", 20);

    @TempDir
    Path temp;

    @ParameterizedTest
    @EnumSource(ThreadingMode.class)
    void shouldCloseTheJournalOnlyAfterItsLastAppendWhenAProducerOutlivesTheClose(final ThreadingMode threading)
        throws Exception
    {
        for (int round = 0; round < ROUNDS; round++)
        {
            final Path dir = Files.createDirectory(temp.resolve(threading + "-" + round));
            final long published = closeWhilePublishing(dir, threading);
            assertThat(openFilesUnder(dir)).as("round %d: the journal's files, closed", round).isEmpty();

            final JournalReader reader = new JournalReader(dir);
            final JournalReplay replay = JournalReplay.ofJournal(reader, (record, decided, shard) -> {});
            assertThat(reader.tornTailOffset()).as("round %d: no torn tail", round).isEqualTo(-1);
            assertThat(replay.mismatches()).as("round %d", round).isZero();
            assertThat(reader.records()).as("round %d: the campaign and at most every bid published", round)
                .isBetween(2L, published + 1);
        }
    }

    /** The files under {@code dir} this process has open (none known where there is no /proc/self/fd). */
    private static List<Path> openFilesUnder(final Path dir) throws IOException
    {
        final Path fds = Path.of("/proc/self/fd");
        final List<Path> open = new ArrayList<>();
        if (!Files.isDirectory(fds))
        {
            return open;
        }
        final Path real = dir.toRealPath();
        try (Stream<Path> each = Files.list(fds))
        {
            for (final Path fd : (Iterable<Path>)each::iterator)
            {
                try
                {
                    final Path target = Files.readSymbolicLink(fd);
                    if (target.startsWith(real))
                    {
                        open.add(target);
                    }
                }
                catch (final IOException closedSinceListed)
                {
                    // the descriptor of the listing itself, or one closed meanwhile
                }
            }
        }
        return open;
    }

    /** Publishes bids from another thread until the pipeline has closed; returns how many went in. */
    private static long closeWhilePublishing(final Path dir, final ThreadingMode threading) throws Exception
    {
        final PacerPipeline pipeline = new PacerPipeline(
            new PipelineConfig(1, 256, "blocking", 3_600_000, PacingPolicy.DEFAULT, 0, threading),
            SystemEpochClock.INSTANCE, Replier.DecisionListener.NONE,
            new WritingJournaler(new JournalWriter(dir, 0, 1, PacingPolicy.DEFAULT, 64L << 20,
                JournalWriter.FsyncPolicy.NEVER, 0)), null);
        pipeline.start();
        final Instant now = Instant.now();
        pipeline.submit(AdminCommand.update(new CampaignDefinition(1, 1_000_000_000, 0, now.minusSeconds(60),
            now.plusSeconds(3_600), ZoneId.of("UTC"), 0, PacingMode.ASAP, CampaignStatus.ACTIVE), 1))
            .get(10, TimeUnit.SECONDS);

        final CollectingResponder responder = new CollectingResponder();
        final AtomicBoolean closed = new AtomicBoolean();
        final CompletableFuture<Long> producer = CompletableFuture.supplyAsync(() ->
        {
            long published = 0;
            final long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
            while (!closed.get() && System.nanoTime() < deadline && published < 2_000_000)
            {
                if (pipeline.tryPublishBid(published, 1, 1_000, responder))
                {
                    published++;
                    try
                    {
                        pipeline.wake();
                    }
                    catch (final RejectedExecutionException loopGone)
                    {
                        break;
                    }
                }
                else
                {
                    Thread.onSpinWait();
                }
            }
            return published;
        });
        responder.awaitAnswers(1_000);
        pipeline.close();
        closed.set(true);
        return producer.get(30, TimeUnit.SECONDS);
    }
}
