package io.pacer.model;

import io.pacer.units.EpochMillis;
import io.pacer.units.Units;

import java.io.DataInput;
import java.io.DataOutput;
import java.io.IOException;

/**
 * A campaign's delivery plan, as a {@link PacingRule} keeps it: a line over the flight, a line
 * over the day, and when they are next re-drawn. Owned by the campaign's {@link CampaignBook};
 * forgotten when the definition changes, and the daily line when the day does.
 */
final class PacingPlan
{
    /** {@link #nextReplanMillis} before the first plan, and after anything that invalidates it. */
    static final @EpochMillis long NOT_PLANNED = Units.MIN_INSTANT;

    final PacingLine lifetime = new PacingLine();
    final PacingLine daily = new PacingLine();
    @EpochMillis long nextReplanMillis = NOT_PLANNED;

    /** Forget everything; the next decision plans afresh. */
    void reset()
    {
        lifetime.reset();
        daily.reset();
        nextReplanMillis = NOT_PLANNED;
    }

    /** A new day: forget the daily line, and re-plan at the next decision. */
    void dayRolled()
    {
        daily.reset();
        nextReplanMillis = NOT_PLANNED;
    }

    boolean planned()
    {
        return nextReplanMillis != NOT_PLANNED;
    }

    /** The lines, for a snapshot ({@link #nextReplanMillis} travels with the campaign's counters). */
    void writeLines(final DataOutput out) throws IOException
    {
        lifetime.write(out);
        daily.write(out);
    }

    void readLines(final DataInput in) throws IOException
    {
        lifetime.read(in);
        daily.read(in);
    }
}
