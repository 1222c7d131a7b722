package io.pacer.server.audit;

import io.pacer.model.CampaignSnapshot;
import io.pacer.model.Money;
import io.pacer.pipeline.journal.JournalReplay;

import java.time.Instant;
import java.util.Locale;

/**
 * {@code pacer replay --until TIME --campaign ID} in words: one campaign as it stood at an
 * instant, from a replay stopped there ({@link JournalReplay#ofJournal(io.pacer.pipeline.journal.JournalReader,
 * JournalReplay.Observer, long)}). The JSON form is the admin API's own ({@code CampaignJson.state}),
 * so a state sampled from the API at {@code asOf} can be compared with it byte for byte.
 */
public final class PointInTime
{
    private PointInTime()
    {
    }

    public static String text(final CampaignSnapshot s)
    {
        final StringBuilder text = new StringBuilder(512);
        text.append(String.format(Locale.ROOT, "campaign %s at %s: %s, %s, flight %s .. %s, time zone %s%n",
            Long.toUnsignedString(s.definition().id()), Instant.ofEpochMilli(s.asOfMillis()), s.definition().pacing(),
            s.definition().status(), s.definition().start(), s.definition().end(), s.definition().timeZone().getId()));
        text.append(String.format(Locale.ROOT, "  budget             %s%n", Amounts.decimal(Money.microsToNanos(s.definition().budgetMicros()))));
        text.append(String.format(Locale.ROOT, "  spent              %s%n", Amounts.decimal(s.spentNanos())));
        text.append(String.format(Locale.ROOT, "  reserved           %s in %d open reservation(s)%n", Amounts.decimal(s.reservedNanos()),
            s.openReservations()));
        text.append(String.format(Locale.ROOT, "  spent today        %s%s%n", Amounts.decimal(s.todaySpentNanos()),
            s.definition().hasDailyCap() ? " of a daily cap of " + Amounts.decimal(Money.microsToNanos(s.definition().dailyBudgetMicros())) : ""));
        text.append(String.format(Locale.ROOT, "  plan line          %s%n", s.plannedNanos() == CampaignSnapshot.NO_PLAN ?
            "none (" + s.definition().pacing() + ", or outside its flight, or not planned yet)" :
            Amounts.decimal(s.plannedNanos()) + " planned by this instant"));
        text.append(String.format(Locale.ROOT, "  so far            %d BID, %d NO_BID, %d win(s) (%d late), %d loss(es), %d reservation(s) expired%n",
            s.bids(), s.noBids(), s.wins(), s.lateWins(), s.losses(), s.expiredReservations()));
        return text.toString();
    }

}
