package io.pacer.model;

import com.google.errorprone.annotations.Immutable;
import io.pacer.units.CpmMicros;
import io.pacer.units.CurrencyMicros;
import io.pacer.units.Units;

import java.time.Instant;
import java.time.ZoneId;
import java.util.Objects;

/**
 * What an operator says a campaign is (docs/operations.md), validated and immutable. Build one with
 * {@link CampaignDefinitionParser} or {@link #CampaignDefinition the constructor}, which both
 * enforce every rule.
 */
@Immutable
public final class CampaignDefinition
{
    private final long id;
    private final @CurrencyMicros long budgetMicros;
    private final @CurrencyMicros long dailyBudgetMicros;
    private final Instant start;
    private final Instant end;
    private final ZoneId timeZone;
    private final @CpmMicros long maxBidCpmMicros;
    private final PacingMode pacing;
    private final CampaignStatus status;

    /**
     * @throws InvalidDefinitionException naming the first field that breaks a rule
     */
    public CampaignDefinition(
        final long id,
        final @CurrencyMicros long budgetMicros,
        final @CurrencyMicros long dailyBudgetMicros,
        final Instant start,
        final Instant end,
        final ZoneId timeZone,
        final @CpmMicros long maxBidCpmMicros,
        final PacingMode pacing,
        final CampaignStatus status)
    {
        requireMoney("budgetMicros", budgetMicros, 1);
        requireMoney("dailyBudgetMicros", dailyBudgetMicros, 0);
        requireMoney("maxBidCpmMicros", maxBidCpmMicros, 0);
        if (start == null)
        {
            throw new InvalidDefinitionException("start", "is required");
        }
        if (end == null)
        {
            throw new InvalidDefinitionException("end", "is required");
        }
        if (!end.isAfter(start))
        {
            throw new InvalidDefinitionException("end", "must be after start (" + start + ")");
        }
        this.id = id;
        this.budgetMicros = budgetMicros;
        this.dailyBudgetMicros = dailyBudgetMicros;
        this.start = start;
        this.end = end;
        this.timeZone = Objects.requireNonNull(timeZone, "timeZone");
        this.maxBidCpmMicros = maxBidCpmMicros;
        this.pacing = Objects.requireNonNull(pacing, "pacing");
        this.status = Objects.requireNonNull(status, "status");
    }

    private static void requireMoney(final String field, final long micros, final long min)
    {
        if (micros < min)
        {
            throw new InvalidDefinitionException(field, "must be " + (min == 0 ? ">= 0" : "> 0") + ", was " + micros);
        }
        if (micros > Money.MAX_MICROS)
        {
            throw new InvalidDefinitionException(field, "must be <= " + Money.MAX_MICROS + ", was " + micros);
        }
    }

    /** This definition with another status. */
    public CampaignDefinition withStatus(final CampaignStatus newStatus)
    {
        return new CampaignDefinition(
            id, budgetMicros, dailyBudgetMicros, start, end, timeZone, maxBidCpmMicros, pacing, newStatus);
    }

    /** This definition with another pacing mode. */
    public CampaignDefinition withPacing(final PacingMode newPacing)
    {
        return newPacing == pacing ? this :
            new CampaignDefinition(id, budgetMicros, dailyBudgetMicros, start, end, timeZone, maxBidCpmMicros, newPacing, status);
    }

    /**
     * Writes the definition in binary, for a snapshot or a cluster log entry: 60 bytes and the
     * zone id, read back by {@link #read} without JSON (restoring a million campaigns from JSON
     * took seconds).
     */
    public void write(final java.io.DataOutput out) throws java.io.IOException
    {
        out.writeLong(id);
        out.writeLong(budgetMicros);
        out.writeLong(dailyBudgetMicros);
        out.writeLong(start.getEpochSecond());
        out.writeInt(start.getNano());
        out.writeLong(end.getEpochSecond());
        out.writeInt(end.getNano());
        out.writeUTF(timeZone.getId());
        out.writeLong(maxBidCpmMicros);
        out.writeByte(pacing.ordinal());
        out.writeByte(status.ordinal());
    }

    /** The most bytes {@link #write} writes for this definition. */
    public int maxWrittenLength()
    {
        // 56 bytes of numbers, 2 of enums, and the zone id: its length (2) and its modified UTF-8 (at most 3 bytes a char)
        return 60 + 3 * timeZone.getId().length();
    }

    private static final PacingMode[] MODES = PacingMode.values();
    /** Flight bounds read from snapshots: campaigns in a row mostly share them. */
    private static final InstantMemo STARTS = new InstantMemo();
    private static final InstantMemo ENDS = new InstantMemo();
    private static final CampaignStatus[] STATUSES = CampaignStatus.values();

    /** Reads what {@link #write} wrote, through the constructor's checks. */
    public static CampaignDefinition read(final java.io.DataInput in) throws java.io.IOException
    {
        final long id = in.readLong();
        final @CurrencyMicros long budget = Units.currencyMicros(in.readLong());
        final @CurrencyMicros long daily = Units.currencyMicros(in.readLong());
        final Instant start = STARTS.of(in.readLong(), in.readInt());
        final Instant end = ENDS.of(in.readLong(), in.readInt());
        final ZoneId zone = ZoneIds.read(in);
        final @CpmMicros long maxBid = Units.cpmMicros(in.readLong());
        return new CampaignDefinition(id, budget, daily, start, end, zone, maxBid, MODES[in.readByte()], STATUSES[in.readByte()]);
    }

    /** Unsigned 64-bit id. */
    public long id()
    {
        return id;
    }

    public @CurrencyMicros long budgetMicros()
    {
        return budgetMicros;
    }

    /** 0: no daily cap. */
    public @CurrencyMicros long dailyBudgetMicros()
    {
        return dailyBudgetMicros;
    }

    public boolean hasDailyCap()
    {
        return dailyBudgetMicros > 0;
    }

    public Instant start()
    {
        return start;
    }

    public Instant end()
    {
        return end;
    }

    public ZoneId timeZone()
    {
        return timeZone;
    }

    /** 0: no cap. */
    public @CpmMicros long maxBidCpmMicros()
    {
        return maxBidCpmMicros;
    }

    public PacingMode pacing()
    {
        return pacing;
    }

    public CampaignStatus status()
    {
        return status;
    }

    @Override
    public boolean equals(final Object o)
    {
        if (this == o)
        {
            return true;
        }
        if (!(o instanceof CampaignDefinition))
        {
            return false;
        }
        final CampaignDefinition that = (CampaignDefinition)o;
        return id == that.id &&
            budgetMicros == that.budgetMicros &&
            dailyBudgetMicros == that.dailyBudgetMicros &&
            maxBidCpmMicros == that.maxBidCpmMicros &&
            start.equals(that.start) &&
            end.equals(that.end) &&
            timeZone.equals(that.timeZone) &&
            pacing == that.pacing &&
            status == that.status;
    }

    @Override
    public int hashCode()
    {
        return Objects.hash(id, budgetMicros, dailyBudgetMicros, start, end, timeZone, maxBidCpmMicros, pacing, status);
    }

    @Override
    public String toString()
    {
        return CampaignJson.definition(this);
    }
}
