package io.pacer.model;

/** How a campaign's delivery is spread over its flight; each mode is one {@link PacingRule}. */
public enum PacingMode
{
    /** Spend spread smoothly across the flight, and across each day under a daily cap. */
    EVEN(EvenRule.INSTANCE),
    /** No pacing: only the lifetime and daily budget caps apply. */
    ASAP(AsapRule.INSTANCE);

    private final PacingRule rule;

    PacingMode(final PacingRule rule)
    {
        this.rule = rule;
    }

    /** The rule that paces a campaign in this mode. */
    public PacingRule rule()
    {
        return rule;
    }
}
