package io.pacer.model;

import org.junit.jupiter.api.Test;

import java.time.Instant;
import java.time.ZoneId;
import java.util.List;
import java.util.SplittableRandom;

import static org.assertj.core.api.Assertions.assertThat;

/** The definition's JSON, written directly, is the text Jackson writes for it, and reads back as the same definition. */
class CampaignJsonTest
{
    private static final List<String> ZONES = List.of("UTC", "America/New_York", "Asia/Kolkata", "Europe/Paris", "+05:30");

    @Test
    void shouldWriteADefinitionExactlyAsJacksonDoes()
    {
        final SplittableRandom random = new SplittableRandom(11);
        for (int i = 0; i < 20_000; i++)
        {
            final long startSecond = random.nextLong(-62_000_000_000L, 253_402_300_000L);
            final Instant start = Instant.ofEpochSecond(startSecond, random.nextInt(4) == 0 ? random.nextInt(1_000_000_000) : 0);
            final Instant end = start.plusSeconds(1 + random.nextLong(1_000_000_000L));
            final CampaignDefinition d = new CampaignDefinition(random.nextLong(), 1 + random.nextLong(Money.MAX_MICROS),
                random.nextLong(Money.MAX_MICROS), start, end, ZoneId.of(ZONES.get(random.nextInt(ZONES.size()))),
                random.nextLong(Money.MAX_MICROS), PacingMode.values()[random.nextInt(2)],
                CampaignStatus.values()[random.nextInt(2)]);
            final String json = CampaignJson.definition(d);
            assertThat(json).isEqualTo(CampaignJson.write(CampaignJson.definitionNode(d)));
            if (!start.isBefore(Instant.parse("0000-01-01T00:00:00Z")) && end.isBefore(Instant.parse("9999-12-31T23:59:59Z")))
            {
                assertThat(CampaignDefinitionParser.parseJson(json)).isEqualTo(d);
            }
        }
    }
}
