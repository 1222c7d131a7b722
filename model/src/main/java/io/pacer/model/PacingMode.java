package io.pacer.model;

/** How a campaign's delivery is spread over its flight. */
public enum PacingMode
{
    /** Spend spread smoothly across the flight, and across each day under a daily cap. */
    EVEN,
    /** No pacing: only the lifetime and daily budget caps apply. */
    ASAP
}
