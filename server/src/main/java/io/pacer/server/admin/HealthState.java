package io.pacer.server.admin;

import java.util.function.BooleanSupplier;
import java.util.function.Supplier;

/**
 * Whether the pacer is ready: recovery done and the gateway listener open, and in cluster mode
 * this node connected to its cluster. In cluster mode /health also gives the node's role.
 */
public final class HealthState
{
    private volatile boolean up;
    private volatile BooleanSupplier connected = () -> true;
    private volatile Supplier<String> role;

    public boolean isUp()
    {
        return up && connected.getAsBoolean();
    }

    public void up()
    {
        up = true;
    }

    public void down()
    {
        up = false;
    }

    /** Cluster mode: ready only while {@code connected}; {@code role} names the node's role. */
    public void cluster(final BooleanSupplier connected, final Supplier<String> role)
    {
        this.connected = connected;
        this.role = role;
    }

    /** The node's role in its cluster (leader, follower, candidate), or null for a single node. */
    public String role()
    {
        final Supplier<String> current = role;
        return current == null ? null : current.get();
    }
}
