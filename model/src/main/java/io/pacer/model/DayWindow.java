package io.pacer.model;

import io.pacer.units.EpochMillis;
import io.pacer.units.Units;

import java.time.Instant;
import java.time.LocalDate;
import java.time.ZoneId;

/**
 * The calendar day, in one time zone, that an epoch-millisecond instant falls in. It recomputes
 * only when time leaves the cached day, so checking it on every event costs two comparisons and
 * allocates nothing; days of 23 or 25 hours (DST changes) come out right.
 */
public final class DayWindow
{
    private final ZoneId zone;
    private @EpochMillis long dayStartMillis = Units.MAX_INSTANT;
    private @EpochMillis long dayEndMillis = Units.MIN_INSTANT;

    public DayWindow(final ZoneId zone)
    {
        this.zone = zone;
    }

    /**
     * Moves the window to the day holding {@code epochMillis}.
     *
     * @return true if that is a different day than before (the first call returns true)
     */
    public boolean moveTo(final @EpochMillis long epochMillis)
    {
        if (epochMillis >= dayStartMillis && epochMillis < dayEndMillis)
        {
            return false;
        }
        final LocalDate day = Instant.ofEpochMilli(epochMillis).atZone(zone).toLocalDate();
        dayStartMillis = Units.epochMillis(day.atStartOfDay(zone).toInstant().toEpochMilli());
        dayEndMillis = Units.epochMillis(day.plusDays(1).atStartOfDay(zone).toInstant().toEpochMilli());
        return true;
    }

    void write(final java.io.DataOutput out) throws java.io.IOException
    {
        out.writeLong(dayStartMillis);
        out.writeLong(dayEndMillis);
    }

    void read(final java.io.DataInput in) throws java.io.IOException
    {
        dayStartMillis = Units.epochMillis(in.readLong());
        dayEndMillis = Units.epochMillis(in.readLong());
    }

    /** First millisecond of the current day. */
    public @EpochMillis long startMillis()
    {
        return dayStartMillis;
    }

    /** First millisecond of the next day. */
    public @EpochMillis long endMillis()
    {
        return dayEndMillis;
    }
}
