package io.pacer.model;

import org.junit.jupiter.api.Test;

import java.time.Instant;
import java.time.LocalDate;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.SplittableRandom;

import static io.pacer.model.TestCampaign.campaign;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * A book's day window in a time zone of fixed offset, computed by arithmetic, is the calendar day
 * java.time gives, to the millisecond, at any offset and any instant of the flight.
 */
class DayWindowPropertyTest
{
    private static final Instant FROM = Instant.parse("1900-01-01T00:00:00Z");
    private static final Instant TO = Instant.parse("2200-01-01T00:00:00Z");

    @Test
    void shouldPutEveryInstantInTheCalendarDayOfItsFixedOffset()
    {
        final SplittableRandom random = new SplittableRandom(42);
        final String[] named = {"UTC", "GMT", "Etc/GMT+12", "Etc/GMT-14", "Z"};
        for (int i = 0; i < 20_000; i++)
        {
            final ZoneId zone = i % 10 == 0 ? ZoneId.of(named[random.nextInt(named.length)]) :
                ZoneOffset.ofTotalSeconds(random.nextInt(-18 * 3_600, 18 * 3_600 + 1));
            final long nowMillis = random.nextLong(FROM.toEpochMilli(), TO.toEpochMilli());
            final CampaignBook book = new CampaignBook(
                campaign(1).budgetMicros(1_000_000).flight(FROM, TO).zone(zone.getId()).build(), PacingPolicy.DEFAULT);

            book.decide(nowMillis, 1);

            final LocalDate day = Instant.ofEpochMilli(nowMillis).atZone(zone).toLocalDate();
            final String what = zone + " at " + Instant.ofEpochMilli(nowMillis);
            assertThat(book.dayStartMillis()).as(what).isEqualTo(day.atStartOfDay(zone).toInstant().toEpochMilli());
            assertThat(book.dayEndMillis()).as(what).isEqualTo(day.plusDays(1).atStartOfDay(zone).toInstant().toEpochMilli());
        }
    }
}
