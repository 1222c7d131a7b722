package io.pacer.model;

import org.junit.jupiter.api.Test;

import java.time.Instant;
import java.util.SplittableRandom;

import static org.assertj.core.api.Assertions.assertThat;

/** The campaigns parser's fast path for UTC instants reads exactly what {@link Instant#parse} reads. */
class UtcInstantPropertyTest
{
    private static final String SAMPLE = "2026-02-28T23:59:59.5Z";

    @Test
    void shouldReadEveryUtcInstantAsInstantParseDoes()
    {
        final SplittableRandom random = new SplittableRandom(42);
        for (int i = 0; i < 100_000; i++)
        {
            final long epochSecond = random.nextLong(0, 253_402_300_800L);
            final int fractionDigits = random.nextInt(10);
            final String whole = Instant.ofEpochSecond(epochSecond).toString();
            final String text = fractionDigits == 0 ? whole : whole.substring(0, 19) + "." +
                String.format("%09d", random.nextInt(1_000_000_000)).substring(0, fractionDigits) + "Z";
            assertThat(CampaignDefinitionParser.utcInstant(text)).as(text).isEqualTo(Instant.parse(text));
        }
    }

    @Test
    void shouldLeaveToInstantParseWhatItDoesNotRead()
    {
        final SplittableRandom random = new SplittableRandom(7);
        final String alphabet = "0123456789-:.TZ+ x";
        for (int i = 0; i < 100_000; i++)
        {
            final char[] text = SAMPLE.toCharArray();
            for (int changes = 1 + random.nextInt(2); changes > 0; changes--)
            {
                text[random.nextInt(text.length)] = alphabet.charAt(random.nextInt(alphabet.length()));
            }
            final String s = new String(text);
            final Instant fast = CampaignDefinitionParser.utcInstant(s);
            if (fast != null)
            {
                assertThat(fast).as(s).isEqualTo(Instant.parse(s));
            }
        }
    }

    @Test
    void shouldRefuseDaysTheMonthDoesNotHaveLeapSecondsAndOffsets()
    {
        assertThat(CampaignDefinitionParser.utcInstant("2026-02-29T00:00:00Z")).isNull();
        assertThat(CampaignDefinitionParser.utcInstant("2028-02-29T00:00:00Z")).isEqualTo(Instant.parse("2028-02-29T00:00:00Z"));
        assertThat(CampaignDefinitionParser.utcInstant("2026-06-30T23:59:60Z")).isNull();
        assertThat(CampaignDefinitionParser.utcInstant("2026-06-30T24:00:00Z")).isNull();
        assertThat(CampaignDefinitionParser.utcInstant("2026-06-30T12:00:00+01:00")).isNull();
    }
}
