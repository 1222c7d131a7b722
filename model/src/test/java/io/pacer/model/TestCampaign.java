package io.pacer.model;

import java.time.Instant;
import java.time.ZoneId;

/** Builds campaign definitions for tests, with a one-day flight starting at {@link #T0}. */
final class TestCampaign
{
    static final Instant T0 = Instant.parse("2026-12-02T00:00:00Z");
    static final long T0_MILLIS = T0.toEpochMilli();

    long id = 42;
    long budgetMicros = 1_000_000;
    long dailyBudgetMicros;
    Instant start = T0;
    Instant end = T0.plusSeconds(86_400);
    ZoneId zone = ZoneId.of("UTC");
    long maxBidCpmMicros;
    PacingMode pacing = PacingMode.ASAP;
    CampaignStatus status = CampaignStatus.ACTIVE;

    static TestCampaign campaign(final long id)
    {
        final TestCampaign c = new TestCampaign();
        c.id = id;
        return c;
    }

    TestCampaign budgetMicros(final long v)
    {
        budgetMicros = v;
        return this;
    }

    TestCampaign dailyBudgetMicros(final long v)
    {
        dailyBudgetMicros = v;
        return this;
    }

    TestCampaign flight(final Instant s, final Instant e)
    {
        start = s;
        end = e;
        return this;
    }

    TestCampaign zone(final String z)
    {
        zone = ZoneId.of(z);
        return this;
    }

    TestCampaign maxBidCpmMicros(final long v)
    {
        maxBidCpmMicros = v;
        return this;
    }

    TestCampaign pacing(final PacingMode p)
    {
        pacing = p;
        return this;
    }

    TestCampaign status(final CampaignStatus s)
    {
        status = s;
        return this;
    }

    CampaignDefinition build()
    {
        return new CampaignDefinition(id, budgetMicros, dailyBudgetMicros, start, end, zone, maxBidCpmMicros, pacing, status);
    }
}
