package io.pacer.client;

/**
 * Receives the answer to every bid made with {@link PacerClient#bid(long, long, long)}: one
 * preallocated handler for the hot path, in the style of Aeron's {@code FragmentHandler}. It is
 * called on the client's event-loop thread and must not block.
 */
@FunctionalInterface
public interface BidAnswerHandler
{
    /**
     * @param correlationId what the caller passed with the bid
     * @param requestId     the request id the client gave the bid (for its win or loss notice)
     * @param campaignId    the campaign bid for
     * @param bid           true for BID: the caller may bid, and must later send a win or loss notice
     * @param reason        the pacer's NO_BID reason ({@code io.pacer.wire.Reason} values, 0 for BID), or
     *                      a client-side fail-safe reason ({@link ClientReason})
     */
    void onAnswer(long correlationId, long requestId, long campaignId, boolean bid, int reason);
}
