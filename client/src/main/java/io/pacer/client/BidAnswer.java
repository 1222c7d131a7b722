package io.pacer.client;

import com.google.errorprone.annotations.Immutable;

/**
 * The answer to a bid made with {@link PacerClient#bid(long, long)}.
 *
 * @param requestId  the request id the client gave the bid; 0 when it was refused before one was given
 * @param campaignId the campaign bid for
 * @param bid        true for BID
 * @param reason     the pacer's NO_BID reason, 0 for BID, or a {@link ClientReason} fail-safe
 */
@Immutable
public record BidAnswer(long requestId, long campaignId, boolean bid, int reason)
{
    /** Whether the client answered by itself (deadline, connection), not the pacer. */
    public boolean failSafe()
    {
        return ClientReason.isFailSafe(reason);
    }

    @Override
    public String toString()
    {
        return (bid ? "BID " : "NO_BID ") + Long.toUnsignedString(requestId) + (bid ? "" : " " + ClientReason.name(reason));
    }
}
