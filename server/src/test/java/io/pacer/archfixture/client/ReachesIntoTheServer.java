package io.pacer.archfixture.client;

import io.pacer.server.PacerServer;

/** A planted violation for ArchitectureTest: "client" code that depends on the server. */
public final class ReachesIntoTheServer
{
    private ReachesIntoTheServer()
    {
    }

    public static Class<?> server()
    {
        return PacerServer.class;
    }
}
