package io.pacer.server.admin;

/** Whether the pacer is ready: recovery done and the gateway listener open. */
public final class HealthState
{
    private volatile boolean up;

    public boolean isUp()
    {
        return up;
    }

    public void up()
    {
        up = true;
    }

    public void down()
    {
        up = false;
    }
}
