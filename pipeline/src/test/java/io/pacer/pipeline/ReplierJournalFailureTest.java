package io.pacer.pipeline;

import io.pacer.model.PacingPolicy;
import io.pacer.pipeline.journal.JournalWriter;
import io.pacer.pipeline.journal.Journaler;
import io.pacer.pipeline.journal.WritingJournaler;
import io.pacer.wire.Reason;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.nio.file.Files;
import java.nio.file.Path;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A journal that cannot be written (here its directory is a plain file, so the first segment
 * cannot be created: a real I/O error, no mock): the replier fails closed.
 */
class ReplierJournalFailureTest
{
    private Path notADirectory;
    private Journaler journaler;

    @BeforeEach
    void brokenJournal() throws Exception
    {
        notADirectory = Files.createTempFile("pacer-journal", ".not-a-dir");
        journaler = new WritingJournaler(new JournalWriter(notADirectory, 0, 1, PacingPolicy.DEFAULT, 1 << 20,
            JournalWriter.FsyncPolicy.NEVER, 100));
    }

    @AfterEach
    void cleanUp() throws Exception
    {
        journaler.close();
        Files.deleteIfExists(notADirectory);
    }

    private static PacerEvent decided(final long requestId, final Reason reason, final Responder responder)
    {
        final PacerEvent event = new PacerEvent();
        event.bidRequest(requestId, 1, 1_000, 1_000, System.nanoTime(), responder);
        event.reason = reason;
        return event;
    }

    @Test
    void shouldWithdrawTheBidsOfTheBatchWhoseJournalWriteFailed() throws Exception
    {
        final Replier replier = new Replier(Replier.DecisionListener.NONE, journaler);
        final CollectingResponder responder = new CollectingResponder();
        replier.onEvent(decided(1, Reason.NONE, responder), 0, false);
        replier.onEvent(decided(2, Reason.BUDGET_EXHAUSTED, responder), 1, false);
        replier.onEvent(decided(3, Reason.NONE, responder), 2, true);

        assertThat(responder.awaitAnswers(3)).containsExactly("1:OVERLOADED", "2:BUDGET_EXHAUSTED", "3:OVERLOADED");
        assertThat(replier.journalFailed()).isTrue();
        assertThat(replier.journalFailure()).hasMessageContaining("journal write failed");
    }

    @Test
    void shouldAnswerNoBidToEveryLaterBidOnceFailed() throws Exception
    {
        final Replier replier = new Replier(Replier.DecisionListener.NONE, journaler);
        final CollectingResponder responder = new CollectingResponder();
        replier.onEvent(decided(1, Reason.NONE, responder), 0, true);
        replier.onEvent(decided(2, Reason.NONE, responder), 1, true);
        replier.onEvent(decided(3, Reason.PACING, responder), 2, true);

        assertThat(responder.awaitAnswers(3)).containsExactly("1:OVERLOADED", "2:OVERLOADED", "3:PACING");
    }
}
