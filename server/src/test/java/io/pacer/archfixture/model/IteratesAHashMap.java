package io.pacer.archfixture.model;

import java.util.HashMap;
import java.util.Map;

/** A planted violation for ArchitectureTest: "model" code whose output follows a HashMap's order. */
public final class IteratesAHashMap
{
    private final Map<Long, Long> spentByCampaign = new HashMap<>();

    public long firstCampaign()
    {
        return spentByCampaign.keySet().iterator().next();
    }
}
