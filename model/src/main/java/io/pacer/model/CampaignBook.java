package io.pacer.model;

import io.pacer.units.CpmMicros;
import io.pacer.units.CurrencyNanos;
import io.pacer.units.EpochMillis;
import io.pacer.units.Units;
import io.pacer.wire.Reason;

import java.time.Instant;
import java.time.LocalDate;
import java.time.ZoneId;
import java.time.zone.ZoneRules;

/**
 * One campaign's money and pacing state. Owned and mutated by exactly one shard thread; nothing
 * here is shared, locked or atomic. Amounts are nanos (see {@link Money}).
 *
 * <p>Invariant, late wins aside: {@code spent + reserved <= budget}, and under a daily cap
 * {@code todaySpent + reserved <= dailyBudget}. Reserved money counts against both caps, whichever
 * day it was reserved on.
 */
public final class CampaignBook
{
    /** {@link #bookWin}'s {@code reservedCostNanos} when no reservation matched the win. */
    public static final @CurrencyNanos long NO_RESERVATION = Units.currencyNanos(-1);

    /** {@link #nextReplanMillis} before the first plan, and after anything that invalidates it. */
    static final @EpochMillis long NOT_PLANNED = Units.MIN_INSTANT;

    /** A day in a time zone of fixed offset. */
    private static final long DAY_MILLIS = 86_400_000L;
    /** {@link #fixedOffsetSeconds} of a time zone whose offset changes (daylight saving, history). */
    private static final int NOT_FIXED = Integer.MIN_VALUE;

    /*
     * Fields are laid out by size, longs first, in declaration order within each size (an int fills
     * the gap after the header: fixedOffsetSeconds, read only when the day rolls); then the
     * booleans, then the references (Java 17, compressed references). What a bid and its win or
     * loss notice read and write is one run, from id to rule, with or without a daily cap; only the
     * counters a late win or an expiry writes come before id. With a million campaigns nearly every
     * bid's book is a cache miss, and the run then spans as few lines as it can: 176 bytes, 3.6
     * lines on average wherever the object starts, where with those counters in the middle of it
     * the run was 192 bytes and 3.9 lines (CampaignBookLayoutTest holds it). Outside the run, and
     * rarer: the policy (a re-plan) and the definition (a day's roll in a zone whose offset
     * changes). The day window and the plan's lines are kept here as numbers, not objects of their
     * own, for the same reason: each object was one more miss that waited on the one before.
     */
    private long lateWins;
    private long expiredReservations;

    private final long id;
    private @EpochMillis long startMillis;
    private @EpochMillis long endMillis;
    private @CpmMicros long maxBidCpmMicros;
    /** The calendar day, in the campaign's time zone, that {@link #todaySpentNanos} counts: [start, end). */
    private @EpochMillis long dayStartMillis = Units.MAX_INSTANT;
    private @EpochMillis long dayEndMillis = Units.MIN_INSTANT;
    private @CurrencyNanos long budgetNanos;
    private @CurrencyNanos long dailyBudgetNanos;
    private @CurrencyNanos long spentNanos;
    private @CurrencyNanos long reservedNanos;
    private @CurrencyNanos long todaySpentNanos;
    private long bids;
    private long noBids;
    private long openReservations;

    /*
     * The pacing plan, as EvenRule keeps it: when it is next re-drawn, and where its lines start
     * (the lifetime line ends at the flight's end at the budget, the daily line at the day's end
     * at the daily cap; see PacingLine). Forgotten when the definition changes, the daily line
     * also when the day does.
     */
    private @EpochMillis long nextReplanMillis = NOT_PLANNED;
    private @EpochMillis long lifetimeFromMillis;
    private @CurrencyNanos long lifetimeFromNanos;
    private @EpochMillis long dailyFromMillis;
    private @CurrencyNanos long dailyFromNanos;

    /** Written by each win or loss notice, which reads the same run as its bid. */
    private long wins;
    private long losses;

    /**
     * The time zone's offset from UTC if it never changes (UTC, the default, or "+05:30"), else
     * {@link #NOT_FIXED}: the day then rolls from the book alone, without reaching the definition.
     */
    private int fixedOffsetSeconds;

    private boolean active;
    private boolean hasLifetimeLine;
    private boolean hasDailyLine;
    private PacingRule rule;
    private final PacingPolicy policy;
    private CampaignDefinition definition;

    public CampaignBook(final CampaignDefinition definition, final PacingPolicy policy)
    {
        this.id = definition.id();
        this.policy = policy;
        redefine(definition);
    }

    /**
     * Replaces the definition. Spent and reserved money stay; the pacing plan is re-drawn from
     * them at the next decision.
     */
    public void redefine(final CampaignDefinition newDefinition)
    {
        if (newDefinition.id() != id)
        {
            throw new IllegalArgumentException("campaign " + Long.toUnsignedString(id) + " cannot take the definition of " +
                Long.toUnsignedString(newDefinition.id()));
        }
        if (definition != null && !definition.timeZone().equals(newDefinition.timeZone()))
        {
            // another calendar: the next event starts a day afresh, as the first one did
            dayStartMillis = Units.MAX_INSTANT;
            dayEndMillis = Units.MIN_INSTANT;
        }
        definition = newDefinition;
        final ZoneRules rules = newDefinition.timeZone().getRules();
        fixedOffsetSeconds = rules.isFixedOffset() ? rules.getOffset(Instant.EPOCH).getTotalSeconds() : NOT_FIXED;
        budgetNanos = Money.microsToNanos(newDefinition.budgetMicros());
        dailyBudgetNanos = Money.microsToNanos(newDefinition.dailyBudgetMicros());
        startMillis = Units.epochMillis(newDefinition.start().toEpochMilli());
        endMillis = Units.epochMillis(newDefinition.end().toEpochMilli());
        active = newDefinition.status() == CampaignStatus.ACTIVE;
        maxBidCpmMicros = newDefinition.maxBidCpmMicros();
        rule = newDefinition.pacing().rule();
        forgetPlan(true);
    }

    /**
     * Decides a bid of {@code bidCpmMicros} (already known to be positive) at {@code nowMillis}
     * and, on BID, reserves its cost.
     *
     * @return {@link Reason#NONE} for a BID, otherwise why not
     */
    public Reason decide(final @EpochMillis long nowMillis, final @CpmMicros long bidCpmMicros)
    {
        final Reason reason = evaluate(nowMillis, bidCpmMicros);
        if (reason == Reason.NONE)
        {
            reservedNanos += Money.impressionCostNanos(bidCpmMicros);
            openReservations++;
            bids++;
        }
        else
        {
            noBids++;
        }
        return reason;
    }

    private Reason evaluate(final @EpochMillis long nowMillis, final @CpmMicros long bidCpmMicros)
    {
        if (!active || nowMillis < startMillis || nowMillis >= endMillis)
        {
            return Reason.CAMPAIGN_INACTIVE;
        }
        if (maxBidCpmMicros > 0 && bidCpmMicros > maxBidCpmMicros)
        {
            return Reason.BID_ABOVE_MAX;
        }
        rollDay(nowMillis);
        final @CurrencyNanos long costNanos = Money.impressionCostNanos(bidCpmMicros);
        final @CurrencyNanos long committedNanos = Money.saturatingAdd(spentNanos, reservedNanos);
        final @CurrencyNanos long todayCommittedNanos = Money.saturatingAdd(todaySpentNanos, reservedNanos);
        final boolean dailyCap = dailyBudgetNanos > 0;
        if (costNanos > budgetNanos - committedNanos || (dailyCap && costNanos > dailyBudgetNanos - todayCommittedNanos))
        {
            return Reason.BUDGET_EXHAUSTED;
        }
        return rule.pace(this, nowMillis, committedNanos, todayCommittedNanos);
    }

    /**
     * Moves the day window to the day holding {@code nowMillis}, if it is not there already (two
     * comparisons): today's spend starts again at zero, and the daily line is re-drawn at the next
     * decision. Days of 23 or 25 hours (DST changes) come out right. A zone of fixed offset (UTC,
     * the default) rolls by arithmetic from the book alone: reaching the definition for the zone was
     * most of rollDay's 3.4% of the gateway threads in a million campaigns' first touches
     * (bench/BENCHMARKS.md).
     */
    private void rollDay(final @EpochMillis long nowMillis)
    {
        if (nowMillis >= dayStartMillis && nowMillis < dayEndMillis)
        {
            return;
        }
        if (fixedOffsetSeconds != NOT_FIXED)
        {
            final long offsetMillis = fixedOffsetSeconds * 1_000L;
            final long start = Math.floorDiv(nowMillis + offsetMillis, DAY_MILLIS) * DAY_MILLIS - offsetMillis;
            dayStartMillis = Units.epochMillis(start);
            dayEndMillis = Units.epochMillis(start + DAY_MILLIS);
        }
        else
        {
            final ZoneId zone = definition.timeZone();
            final LocalDate day = Instant.ofEpochMilli(nowMillis).atZone(zone).toLocalDate();
            dayStartMillis = Units.epochMillis(day.atStartOfDay(zone).toInstant().toEpochMilli());
            dayEndMillis = Units.epochMillis(day.plusDays(1).atStartOfDay(zone).toInstant().toEpochMilli());
        }
        todaySpentNanos = Units.ZERO_NANOS;
        forgetPlan(false);
    }

    /** The plan is re-drawn at the next decision: the daily line from scratch, the lifetime line too if {@code lifetime}. */
    private void forgetPlan(final boolean lifetime)
    {
        nextReplanMillis = NOT_PLANNED;
        hasDailyLine = false;
        if (lifetime)
        {
            hasLifetimeLine = false;
        }
    }

    /**
     * Reads a field in every cache line of the run a bid and its notice read (see {@link
     * PacingShard#touchNoted} and the layout above): {@code id}, {@code spentNanos}, {@code
     * lifetimeFromNanos} and {@code rule} lie at offsets 32, 96, 160 and 204 of the 216-byte object
     * (Java 17, compressed references), never more than 64 bytes apart, so no line of the run goes
     * unread wherever the object starts. CampaignBookLayoutTest names these four and the run.
     */
    long touch()
    {
        return id + spentNanos + lifetimeFromNanos + (rule == null ? 1 : 0);
    }

    /** Releases a reservation's cost, after its loss notice or expiry. */
    public void release(final @CurrencyNanos long costNanos, final boolean expired)
    {
        reservedNanos -= costNanos;
        openReservations--;
        if (expired)
        {
            expiredReservations++;
        }
        else
        {
            losses++;
        }
    }

    /**
     * Books a win at {@code priceCpmMicros}: always booked, even without a matching reservation
     * (money the exchange says it spent is never dropped).
     *
     * @param reservedCostNanos the matching reservation's cost, released here, or -1 if none matched
     */
    public void bookWin(final @EpochMillis long nowMillis, final @CpmMicros long priceCpmMicros,
        final @CurrencyNanos long reservedCostNanos)
    {
        rollDay(nowMillis);
        final @CurrencyNanos long priceNanos = Money.impressionCostNanos(priceCpmMicros);
        if (reservedCostNanos >= 0)
        {
            reservedNanos -= reservedCostNanos;
            openReservations--;
        }
        else
        {
            lateWins++;
        }
        spentNanos = Money.saturatingAdd(spentNanos, priceNanos);
        todaySpentNanos = Money.saturatingAdd(todaySpentNanos, priceNanos);
        wins++;
    }

    public CampaignDefinition definition()
    {
        return definition;
    }

    /** Writes everything decisions depend on, for a snapshot. */
    void write(final java.io.DataOutput out, final boolean jsonDefinition) throws java.io.IOException
    {
        if (jsonDefinition)
        {
            out.writeUTF(CampaignJson.definition(definition));
        }
        else
        {
            definition.write(out);
        }
        for (final long v : new long[] {nextReplanMillis, spentNanos, reservedNanos, todaySpentNanos, bids, noBids, wins,
            losses, lateWins, expiredReservations, openReservations})
        {
            out.writeLong(v);
        }
        out.writeLong(dayStartMillis);
        out.writeLong(dayEndMillis);
        // each line as it was once an object of its own: start, end, base, target, planned (zeros if not)
        writeLine(out, hasLifetimeLine, lifetimeFromMillis, endMillis, lifetimeFromNanos, budgetNanos);
        writeLine(out, hasDailyLine, dailyFromMillis, dailyEndMillis(), dailyFromNanos, dailyBudgetNanos);
    }

    /** Reads what {@link #write} wrote. */
    static CampaignBook read(final java.io.DataInput in, final PacingPolicy policy, final boolean jsonDefinition)
        throws java.io.IOException
    {
        final CampaignBook book = new CampaignBook(jsonDefinition ? CampaignDefinitionParser.parseJson(in.readUTF()) :
            CampaignDefinition.read(in), policy);
        book.nextReplanMillis = Units.epochMillis(in.readLong());
        book.spentNanos = Units.currencyNanos(in.readLong());
        book.reservedNanos = Units.currencyNanos(in.readLong());
        book.todaySpentNanos = Units.currencyNanos(in.readLong());
        book.bids = in.readLong();
        book.noBids = in.readLong();
        book.wins = in.readLong();
        book.losses = in.readLong();
        book.lateWins = in.readLong();
        book.expiredReservations = in.readLong();
        book.openReservations = in.readLong();
        book.dayStartMillis = Units.epochMillis(in.readLong());
        book.dayEndMillis = Units.epochMillis(in.readLong());
        book.lifetimeFromMillis = Units.epochMillis(in.readLong());
        in.readLong(); // the end: the flight's, as written
        book.lifetimeFromNanos = Units.currencyNanos(in.readLong());
        in.readLong(); // the target: the budget, as written
        book.hasLifetimeLine = in.readBoolean();
        book.dailyFromMillis = Units.epochMillis(in.readLong());
        in.readLong(); // the day's end (or the flight's, if sooner), as written
        book.dailyFromNanos = Units.currencyNanos(in.readLong());
        in.readLong(); // the daily cap, as written
        book.hasDailyLine = in.readBoolean();
        return book;
    }

    private static void writeLine(final java.io.DataOutput out, final boolean planned, final @EpochMillis long fromMillis,
        final @EpochMillis long endMillis, final @CurrencyNanos long fromNanos, final @CurrencyNanos long targetNanos)
        throws java.io.IOException
    {
        out.writeLong(planned ? fromMillis : 0);
        out.writeLong(planned ? endMillis : 0);
        out.writeLong(planned ? fromNanos : 0);
        out.writeLong(planned ? targetNanos : 0);
        out.writeBoolean(planned);
    }

    long id()
    {
        return id;
    }

    /** Whether the plan was drawn since it was last forgotten. */
    boolean planned()
    {
        return nextReplanMillis != NOT_PLANNED;
    }

    /** When EvenRule next re-draws the plan; {@link #NOT_PLANNED} before the first time and after it was forgotten. */
    @EpochMillis long nextReplanMillis()
    {
        return nextReplanMillis;
    }

    /** EvenRule drew the plan: it is next re-drawn at {@code nextReplanMillis}. */
    void planDrawn(final @EpochMillis long nextReplanMillis)
    {
        this.nextReplanMillis = nextReplanMillis;
    }

    /** Spend the lifetime line allows by {@code nowMillis}. */
    @CurrencyNanos long lifetimePlannedNanos(final @EpochMillis long nowMillis)
    {
        return PacingLine.plannedNanos(lifetimeFromMillis, lifetimeFromNanos, endMillis, budgetNanos, nowMillis);
    }

    /** Spend the daily line allows by {@code nowMillis}. */
    @CurrencyNanos long dailyPlannedNanos(final @EpochMillis long nowMillis)
    {
        return PacingLine.plannedNanos(dailyFromMillis, dailyFromNanos, dailyEndMillis(), dailyBudgetNanos, nowMillis);
    }

    /** Re-draws the lifetime line from {@code committedNanos} at {@code nowMillis}. */
    void replanLifetime(final @EpochMillis long nowMillis, final @CurrencyNanos long committedNanos)
    {
        lifetimeFromNanos = PacingLine.replannedFromNanos(hasLifetimeLine, lifetimeFromMillis, lifetimeFromNanos, endMillis,
            budgetNanos, nowMillis, committedNanos);
        lifetimeFromMillis = nowMillis;
        hasLifetimeLine = true;
    }

    /** Re-draws the daily line from {@code todayCommittedNanos} at {@code nowMillis}. */
    void replanDaily(final @EpochMillis long nowMillis, final @CurrencyNanos long todayCommittedNanos)
    {
        dailyFromNanos = PacingLine.replannedFromNanos(hasDailyLine, dailyFromMillis, dailyFromNanos, dailyEndMillis(),
            dailyBudgetNanos, nowMillis, todayCommittedNanos);
        dailyFromMillis = nowMillis;
        hasDailyLine = true;
    }

    /** Where the daily line ends: the day's end, or the flight's if that comes first. */
    private @EpochMillis long dailyEndMillis()
    {
        return Units.epochMillis(Math.min(dayEndMillis, endMillis));
    }

    PacingPolicy policy()
    {
        return policy;
    }

    /** First millisecond of the day {@link #todaySpentNanos} counts. */
    @EpochMillis long dayStartMillis()
    {
        return dayStartMillis;
    }

    /** First millisecond of the next day. */
    @EpochMillis long dayEndMillis()
    {
        return dayEndMillis;
    }

    @CurrencyNanos long budgetNanos()
    {
        return budgetNanos;
    }

    @CurrencyNanos long dailyBudgetNanos()
    {
        return dailyBudgetNanos;
    }

    @EpochMillis long startMillis()
    {
        return startMillis;
    }

    @EpochMillis long endMillis()
    {
        return endMillis;
    }

    public @CurrencyNanos long spentNanos()
    {
        return spentNanos;
    }

    /** Wins booked with no open reservation to match: it had expired, was settled by a loss, or was never made. */
    public long lateWins()
    {
        return lateWins;
    }

    public @CurrencyNanos long reservedNanos()
    {
        return reservedNanos;
    }

    /** A consistent picture of this campaign as of {@code nowMillis} (the owning shard's time). */
    public CampaignSnapshot snapshot(final @EpochMillis long nowMillis)
    {
        final boolean sameDay = nowMillis >= dayStartMillis && nowMillis < dayEndMillis;
        final @CurrencyNanos long planned = nowMillis >= startMillis && nowMillis < endMillis ?
            rule.plannedNanos(this, nowMillis) : CampaignSnapshot.NO_PLAN;
        return new CampaignSnapshot(
            definition,
            spentNanos,
            reservedNanos,
            sameDay ? todaySpentNanos : Units.ZERO_NANOS,
            planned,
            bids,
            noBids,
            wins,
            losses,
            lateWins,
            expiredReservations,
            openReservations,
            nowMillis);
    }
}
