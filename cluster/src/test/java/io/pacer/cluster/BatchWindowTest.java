package io.pacer.cluster;

import io.pacer.pipeline.EventType;
import io.pacer.pipeline.Responder;
import io.pacer.wire.Reason;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/** A node's batches in flight: numbered in order, answered once, and never more than the members remember. */
class BatchWindowTest
{
    private static final long FIRST = 1_000;

    private final BatchWindow window = new BatchWindow(0, FIRST, 64 * 1024);

    private OutBatch sealedBid(final long requestId)
    {
        final OutBatch batch = window.room(0);
        batch.add(EventType.BID_REQUEST, requestId, 1, 1_000, 0);
        window.seal();
        return batch;
    }

    @Test
    void shouldAnswerEachBatchOnceAndMoveTheHeadOnlyPastAnsweredOnes()
    {
        final OutBatch first = sealedBid(1);
        final OutBatch second = sealedBid(2);
        assertThat(first.seq).isEqualTo(FIRST);
        assertThat(second.seq).isEqualTo(FIRST + 1);
        assertThat(window.inFlight()).isEqualTo(2);

        assertThat(window.awaiting(FIRST + 1, 1)).isSameAs(second);
        window.answered(second);
        assertThat(window.inFlight()).as("the head waits for the older batch").isEqualTo(2);
        assertThat(window.awaiting(FIRST + 1, 1)).as("a second answer to a resent batch").isNull();
        assertThat(window.awaiting(FIRST, 2)).as("an answer whose count does not match").isNull();

        window.answered(window.awaiting(FIRST, 1));
        assertThat(window.inFlight()).isZero();
        assertThat(window.awaiting(FIRST, 1)).isNull();
    }

    @Test
    void shouldRefuseAnotherBatchOnceTheMembersCouldNoLongerRememberTheOldest()
    {
        for (int i = 0; i < AnswerWindow.CAPACITY - 1; i++)
        {
            sealedBid(i);
        }
        assertThat(window.hasRoom()).isFalse();
        assertThat(window.room(0)).isNull();
        window.answered(window.awaiting(FIRST, 1));
        assertThat(window.room(0)).isNotNull();
    }

    @Test
    void shouldHaveAReadWaitForTheNewestWriteAndCloseAStreamAfterItsLastAnswer()
    {
        final boolean[] closed = {false};
        final Responder connection = new Responder()
        {
            @Override
            public boolean append(final long requestId, final Reason reason)
            {
                return false;
            }

            @Override
            public void withdrawBids()
            {
            }

            @Override
            public void flush()
            {
            }

            @Override
            public void endOfStream()
            {
                closed[0] = true;
            }
        };
        assertThat(window.readBarrier()).as("nothing in flight: read at once").isZero();
        final OutBatch batch = sealedBid(1);
        assertThat(window.readBarrier()).isEqualTo(batch.seq);
        window.endOfStream(connection);
        assertThat(closed[0]).as("not before its answers").isFalse();
        assertThat(batch.endOfStreams).containsExactly(connection);
        window.answered(batch);
        window.endOfStream(connection);
        assertThat(closed[0]).as("nothing in flight: closed at once").isTrue();
    }
}
