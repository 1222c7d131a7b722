package io.pacer.client;

import io.pacer.wire.Reason;

/**
 * NO_BID reasons the client gives by itself, never sent by the pacer: every one is a fail-safe
 * (the auction goes on without this bid). Their values are above every wire reason.
 */
public final class ClientReason
{
    /** The pacer did not answer within the deadline. */
    public static final int DEADLINE_EXCEEDED = 100;
    /** The connection dropped while the bid was in flight; it is not sent again. */
    public static final int CONNECTION_LOST = 101;
    /** No connection to a node that serves the campaign is up. */
    public static final int NOT_CONNECTED = 102;
    /** The client's own queue or in-flight table was full. */
    public static final int BACK_PRESSURED = 103;
    /** The client is closing or closed. */
    public static final int CLOSED = 104;

    private static final String[] NAMES = {"DEADLINE_EXCEEDED", "CONNECTION_LOST", "NOT_CONNECTED", "BACK_PRESSURED", "CLOSED"};

    private ClientReason()
    {
    }

    /** Whether {@code reason} is a client-side fail-safe rather than the pacer's answer. */
    public static boolean isFailSafe(final int reason)
    {
        return reason >= DEADLINE_EXCEEDED;
    }

    /** The reason's name: a wire {@link Reason} or a client-side one. */
    public static String name(final int reason)
    {
        if (isFailSafe(reason) && reason - DEADLINE_EXCEEDED < NAMES.length)
        {
            return NAMES[reason - DEADLINE_EXCEEDED];
        }
        final Reason wire = reason >= 0 && reason < 256 ? Reason.get((short)reason) : Reason.NULL_VAL;
        return wire == Reason.NULL_VAL ? Integer.toString(reason) : wire.name();
    }
}
