package io.pacer.model;

import io.pacer.wire.Reason;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.time.Instant;

import static io.pacer.model.TestCampaign.T0;
import static io.pacer.model.TestCampaign.T0_MILLIS;
import static io.pacer.model.TestCampaign.campaign;
import static org.assertj.core.api.Assertions.assertThat;

class PacingShardTest
{
    private static final long TTL = 30_000;
    private final PacingShard shard = new PacingShard(new PacingPolicy(TTL, 1_000), 1024);
    private long requestId;

    private Reason bid(final long campaignId, final long cpmMicros, final long atMillis)
    {
        return shard.bid(++requestId, campaignId, cpmMicros, atMillis);
    }

    @Test
    void shouldBidForKnownActiveCampaignWithinBudget()
    {
        shard.define(campaign(42).build(), T0_MILLIS);
        assertThat(bid(42, 2_500_000, T0_MILLIS + 1)).isEqualTo(Reason.NONE);
        assertThat(shard.snapshot(42).reservedNanos()).isEqualTo(2_500_000);
    }

    @Test
    void shouldRejectUnknownCampaign()
    {
        assertThat(bid(7, 1_000, T0_MILLIS)).isEqualTo(Reason.UNKNOWN_CAMPAIGN);
    }

    @Test
    void shouldRejectNonPositiveBidAsInvalidBeforeLookingAtTheCampaign()
    {
        shard.define(campaign(42).build(), T0_MILLIS);
        assertThat(bid(42, 0, T0_MILLIS)).isEqualTo(Reason.INVALID_REQUEST);
        assertThat(bid(42, -5, T0_MILLIS)).isEqualTo(Reason.INVALID_REQUEST);
        assertThat(bid(99, 0, T0_MILLIS)).isEqualTo(Reason.INVALID_REQUEST);
    }

    @Test
    void shouldRejectPausedCampaignAsInactive()
    {
        shard.define(campaign(42).status(CampaignStatus.PAUSED).build(), T0_MILLIS);
        assertThat(bid(42, 1_000, T0_MILLIS + 1)).isEqualTo(Reason.CAMPAIGN_INACTIVE);
    }

    @Test
    void shouldBeInactiveBeforeStartAndAtOrAfterEnd()
    {
        shard.define(campaign(42).build(), T0_MILLIS - 10);
        final PacingShard fresh = new PacingShard(PacingPolicy.DEFAULT, 16);
        fresh.define(campaign(42).build(), T0_MILLIS - 10);
        assertThat(fresh.bid(1, 42, 1_000, T0_MILLIS - 1)).isEqualTo(Reason.CAMPAIGN_INACTIVE);
        assertThat(fresh.bid(2, 42, 1_000, T0_MILLIS)).isEqualTo(Reason.NONE);
        final long endMillis = T0_MILLIS + 86_400_000;
        assertThat(fresh.bid(3, 42, 1_000, endMillis - 1)).isEqualTo(Reason.NONE);
        assertThat(fresh.bid(4, 42, 1_000, endMillis)).isEqualTo(Reason.CAMPAIGN_INACTIVE);
    }

    @Test
    void shouldRejectBidAboveMaxButAcceptBidAtMax()
    {
        shard.define(campaign(42).maxBidCpmMicros(2_000_000).build(), T0_MILLIS);
        assertThat(bid(42, 2_000_001, T0_MILLIS)).isEqualTo(Reason.BID_ABOVE_MAX);
        assertThat(bid(42, 2_000_000, T0_MILLIS)).isEqualTo(Reason.NONE);
    }

    @Test
    void shouldBidWhenCostExactlyFitsTheLifetimeBudget()
    {
        // budget 10 micros = 10,000 nanos; a 10,000 CPM-micro bid costs exactly 10,000 nanos
        shard.define(campaign(42).budgetMicros(10).build(), T0_MILLIS);
        assertThat(bid(42, 10_000, T0_MILLIS)).isEqualTo(Reason.NONE);
        assertThat(bid(42, 1, T0_MILLIS)).isEqualTo(Reason.BUDGET_EXHAUSTED);
    }

    @Test
    void shouldRejectBidThatWouldPassLifetimeBudgetByOneNano()
    {
        shard.define(campaign(42).budgetMicros(10).build(), T0_MILLIS);
        assertThat(bid(42, 10_001, T0_MILLIS)).isEqualTo(Reason.BUDGET_EXHAUSTED);
        assertThat(bid(42, 4_000, T0_MILLIS)).isEqualTo(Reason.NONE);
        assertThat(bid(42, 6_001, T0_MILLIS)).isEqualTo(Reason.BUDGET_EXHAUSTED);
        assertThat(bid(42, 6_000, T0_MILLIS)).isEqualTo(Reason.NONE);
    }

    @Test
    void shouldRejectBidThatWouldPassDailyBudget()
    {
        shard.define(campaign(42).budgetMicros(1_000).dailyBudgetMicros(10).build(), T0_MILLIS);
        assertThat(bid(42, 10_001, T0_MILLIS)).isEqualTo(Reason.BUDGET_EXHAUSTED);
        assertThat(bid(42, 10_000, T0_MILLIS)).isEqualTo(Reason.NONE);
        assertThat(bid(42, 1, T0_MILLIS)).isEqualTo(Reason.BUDGET_EXHAUSTED);
    }

    @Test
    void shouldResetDailySpendAtMidnightInTheCampaignsTimeZone()
    {
        // New York midnight of Dec 3 is 05:00Z; the flight spans several days
        shard.define(campaign(42).budgetMicros(1_000).dailyBudgetMicros(10).zone("America/New_York")
            .flight(T0, T0.plusSeconds(5 * 86_400)).build(), T0_MILLIS);
        final long dec2Noon = Instant.parse("2026-12-02T17:00:00Z").toEpochMilli();
        assertThat(bid(42, 10_000, dec2Noon)).isEqualTo(Reason.NONE);
        shard.win(requestId, 42, 10_000, dec2Noon + 1);
        final long justBeforeMidnightNy = Instant.parse("2026-12-03T04:59:59.999Z").toEpochMilli();
        assertThat(bid(42, 1, justBeforeMidnightNy)).isEqualTo(Reason.BUDGET_EXHAUSTED);
        final long midnightNy = Instant.parse("2026-12-03T05:00:00Z").toEpochMilli();
        assertThat(bid(42, 10_000, midnightNy)).isEqualTo(Reason.NONE);
        assertThat(shard.snapshot(42).spentNanos()).isEqualTo(10_000);
    }

    @ParameterizedTest(name = "{0}: the day ends at {2}")
    @CsvSource({
        // +05:30: midnight of Dec 3 is 2026-12-02T18:30:00Z
        "+05:30, 2026-12-02T06:30:00Z, 2026-12-02T18:30:00Z",
        // -03:00: Dec 2 runs 2026-12-02T03:00Z to 2026-12-03T03:00Z
        "-03:00, 2026-12-03T01:00:00Z, 2026-12-03T03:00:00Z",
        "UTC, 2026-12-02T23:00:00Z, 2026-12-03T00:00:00Z"})
    void shouldResetDailySpendAtMidnightInAZoneOfFixedOffset(final String zone, final Instant spendAt, final Instant midnight)
    {
        shard.define(campaign(42).budgetMicros(1_000).dailyBudgetMicros(10).zone(zone)
            .flight(T0, T0.plusSeconds(5 * 86_400)).build(), T0_MILLIS);
        assertThat(bid(42, 10_000, spendAt.toEpochMilli())).isEqualTo(Reason.NONE);
        shard.win(requestId, 42, 10_000, spendAt.toEpochMilli() + 1);
        assertThat(bid(42, 1, midnight.toEpochMilli() - 1)).isEqualTo(Reason.BUDGET_EXHAUSTED);
        assertThat(bid(42, 10_000, midnight.toEpochMilli())).isEqualTo(Reason.NONE);
        assertThat(shard.snapshot(42).spentNanos()).isEqualTo(10_000);
    }

    @Test
    void shouldCountTheDayAfreshInTheNewTimeZoneWhenTheZoneChanges()
    {
        shard.define(campaign(42).budgetMicros(1_000).dailyBudgetMicros(10).flight(T0, T0.plusSeconds(5 * 86_400)).build(),
            T0_MILLIS);
        final long noonUtc = Instant.parse("2026-12-02T12:00:00Z").toEpochMilli();
        assertThat(bid(42, 10_000, noonUtc)).isEqualTo(Reason.NONE);
        shard.win(requestId, 42, 10_000, noonUtc);
        assertThat(bid(42, 1, noonUtc + 1)).isEqualTo(Reason.BUDGET_EXHAUSTED);
        // Tokyo's Dec 2 runs 2026-12-01T15:00Z to 2026-12-02T15:00Z: a day of its own, counted from here
        shard.define(campaign(42).budgetMicros(1_000).dailyBudgetMicros(10).zone("Asia/Tokyo")
            .flight(T0, T0.plusSeconds(5 * 86_400)).build(), noonUtc + 2);
        assertThat(bid(42, 10_000, noonUtc + 3)).isEqualTo(Reason.NONE);
        shard.win(requestId, 42, 10_000, noonUtc + 3);
        assertThat(bid(42, 1, Instant.parse("2026-12-02T14:59:59.999Z").toEpochMilli())).isEqualTo(Reason.BUDGET_EXHAUSTED);
        assertThat(bid(42, 10_000, Instant.parse("2026-12-02T15:00:00Z").toEpochMilli())).isEqualTo(Reason.NONE);
        assertThat(shard.snapshot(42).spentNanos()).isEqualTo(20_000);
    }

    @Test
    void shouldChangeNothingWhenACampaignIsTouchedAhead() throws Exception
    {
        shard.define(campaign(42).pacing(PacingMode.EVEN).build(), T0_MILLIS);
        assertThat(bid(42, 2_500_000, T0_MILLIS + 1)).isEqualTo(Reason.NONE);
        final long requestId = this.requestId;
        shard.loss(requestId, 42, T0_MILLIS + 2); // settled: the dedupe window holds it
        final byte[] before = snapshotBytes();
        shard.note(requestId, 42, true);
        shard.note(requestId + 1, 7, false);
        // a shard this small notes no book and its reservations' index stays small: only the
        // notice's place in the dedupe window is read, and it holds the settled loss
        assertThat(shard.touchNoted()).isNotZero();
        assertThat(snapshotBytes()).isEqualTo(before);
    }

    @Test
    void shouldChangeNothingWhenABidOrNoticeIsTouchedAheadInAShardLargeEnoughToTouch() throws Exception
    {
        // enough campaigns and open reservations that the books and the reservations' index are
        // read (the index has grown past 32,768 slots), and a settled notice in the dedupe window
        final int many = PacingShard.TOUCH_FROM_CAMPAIGNS;
        for (int id = 1; id <= many; id++)
        {
            shard.define(campaign(id).build(), T0_MILLIS);
        }
        for (int id = 1; id <= many; id++)
        {
            assertThat(bid(id, 1_000, T0_MILLIS + 1)).isEqualTo(Reason.NONE);
        }
        shard.loss(1, 1, T0_MILLIS + 2); // campaign 1's bid was request 1
        final byte[] before = snapshotBytes();
        assertThat(shard.touchesBooks()).isTrue();
        shard.note(requestId, many, false);
        shard.note(requestId, many, true);
        shard.note(1, 1, true);
        shard.note(requestId + 1, many + 1, false);
        assertThat(shard.touchNoted()).isNotZero();
        // the notes are forgotten once touched
        assertThat(shard.touchNoted()).isZero();
        assertThat(snapshotBytes()).isEqualTo(before);
        assertThat(shard.counters().openReservations).isEqualTo(many - 1);
    }

    private byte[] snapshotBytes() throws java.io.IOException
    {
        final java.io.ByteArrayOutputStream bytes = new java.io.ByteArrayOutputStream();
        shard.snapshotTo(new java.io.DataOutputStream(bytes));
        return bytes.toByteArray();
    }

    @Test
    void shouldRefuseToGiveABookAnotherCampaignsDefinition()
    {
        final CampaignBook book = new CampaignBook(campaign(42).build(), PacingPolicy.DEFAULT);
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> book.redefine(campaign(43).build()))
            .isInstanceOf(IllegalArgumentException.class)
            .hasMessage("campaign 42 cannot take the definition of 43");
        assertThat(book.definition().id()).isEqualTo(42);
    }

    @Test
    void shouldFollowTimeZoneDaylightSavingDays()
    {
        // Europe/Paris 2026-03-29 has 23 hours: the next day starts at 2026-03-29T22:00:00Z
        final Instant start = Instant.parse("2026-03-28T00:00:00Z");
        final PacingShard paris = new PacingShard(PacingPolicy.DEFAULT, 16);
        paris.define(campaign(1).budgetMicros(1_000).dailyBudgetMicros(10).zone("Europe/Paris")
            .flight(start, start.plusSeconds(5 * 86_400)).build(), start.toEpochMilli());
        final long dstDay = Instant.parse("2026-03-29T12:00:00Z").toEpochMilli();
        assertThat(paris.bid(1, 1, 10_000, dstDay)).isEqualTo(Reason.NONE);
        paris.win(1, 1, 10_000, dstDay);
        assertThat(paris.bid(2, 1, 1, Instant.parse("2026-03-29T21:59:59Z").toEpochMilli())).isEqualTo(Reason.BUDGET_EXHAUSTED);
        assertThat(paris.bid(3, 1, 1, Instant.parse("2026-03-29T22:00:00Z").toEpochMilli())).isEqualTo(Reason.NONE);
    }

    @Test
    void shouldFreeBudgetOnLossForAnotherBid()
    {
        shard.define(campaign(42).budgetMicros(10).build(), T0_MILLIS);
        assertThat(bid(42, 10_000, T0_MILLIS)).isEqualTo(Reason.NONE);
        final long first = requestId;
        assertThat(bid(42, 10_000, T0_MILLIS)).isEqualTo(Reason.BUDGET_EXHAUSTED);
        shard.loss(first, 42, T0_MILLIS + 5);
        assertThat(bid(42, 10_000, T0_MILLIS + 6)).isEqualTo(Reason.NONE);
        assertThat(shard.snapshot(42).losses()).isEqualTo(1);
    }

    @Test
    void shouldBookWinAtClearingPriceAndReleaseTheRestOfTheReservation()
    {
        shard.define(campaign(42).budgetMicros(10).build(), T0_MILLIS);
        assertThat(bid(42, 8_000, T0_MILLIS)).isEqualTo(Reason.NONE);
        shard.win(requestId, 42, 3_000, T0_MILLIS + 1);
        final CampaignSnapshot s = shard.snapshot(42);
        assertThat(s.spentNanos()).isEqualTo(3_000);
        assertThat(s.reservedNanos()).isZero();
        assertThat(s.openReservations()).isZero();
        assertThat(bid(42, 7_000, T0_MILLIS + 2)).isEqualTo(Reason.NONE);
        assertThat(bid(42, 1, T0_MILLIS + 2)).isEqualTo(Reason.BUDGET_EXHAUSTED);
    }

    @Test
    void shouldExpireReservationAfterTtlAndFreeItsBudget()
    {
        shard.define(campaign(42).budgetMicros(10).build(), T0_MILLIS);
        assertThat(bid(42, 10_000, T0_MILLIS)).isEqualTo(Reason.NONE);
        shard.tick(T0_MILLIS + TTL - 1);
        assertThat(shard.snapshot(42).reservedNanos()).isEqualTo(10_000);
        shard.tick(T0_MILLIS + TTL);
        assertThat(shard.snapshot(42).reservedNanos()).isZero();
        assertThat(shard.snapshot(42).expiredReservations()).isEqualTo(1);
        assertThat(shard.counters().expiredReservations()).isEqualTo(1);
        assertThat(bid(42, 10_000, T0_MILLIS + TTL)).isEqualTo(Reason.NONE);
    }

    @Test
    void shouldBookLateWinAfterExpiryAndCountIt()
    {
        shard.define(campaign(42).budgetMicros(10).build(), T0_MILLIS);
        bid(42, 10_000, T0_MILLIS);
        final long expiredRequest = requestId;
        shard.tick(T0_MILLIS + TTL);
        bid(42, 10_000, T0_MILLIS + TTL);
        shard.win(expiredRequest, 42, 10_000, T0_MILLIS + TTL + 1);
        final CampaignSnapshot s = shard.snapshot(42);
        assertThat(s.spentNanos()).isEqualTo(10_000);
        assertThat(s.reservedNanos()).isEqualTo(10_000);
        assertThat(s.spentNanos() + s.reservedNanos()).isGreaterThan(10_000);
        assertThat(s.lateWins()).isEqualTo(1);
        assertThat(shard.counters().lateWins()).isEqualTo(1);
    }

    @Test
    void shouldBookADuplicateWinOnceAndCountIt()
    {
        shard.define(campaign(42).budgetMicros(100).build(), T0_MILLIS);
        bid(42, 10_000, T0_MILLIS);
        shard.win(requestId, 42, 5_000, T0_MILLIS);
        shard.win(requestId, 42, 5_000, T0_MILLIS + 1);
        assertThat(shard.snapshot(42).spentNanos()).isEqualTo(5_000);
        assertThat(shard.snapshot(42).lateWins()).isZero();
        assertThat(shard.counters().duplicateNotices()).isEqualTo(1);
        assertThat(shard.counters().bookedNanos()).isEqualTo(5_000);
    }

    @Test
    void shouldChangeNothingOnALossAfterAWinOrASecondLoss()
    {
        shard.define(campaign(42).budgetMicros(100).build(), T0_MILLIS);
        bid(42, 10_000, T0_MILLIS);
        final long won = requestId;
        bid(42, 10_000, T0_MILLIS);
        final long lost = requestId;
        shard.win(won, 42, 7_000, T0_MILLIS + 1);
        shard.loss(won, 42, T0_MILLIS + 2);
        shard.loss(lost, 42, T0_MILLIS + 3);
        shard.loss(lost, 42, T0_MILLIS + 4);
        assertThat(shard.snapshot(42).spentNanos()).isEqualTo(7_000);
        assertThat(shard.snapshot(42).reservedNanos()).isZero();
        assertThat(shard.counters().losses()).isEqualTo(1);
        assertThat(shard.counters().unmatchedLosses()).isZero();
        assertThat(shard.counters().duplicateNotices()).isEqualTo(2);
    }

    @Test
    void shouldBookAWinAfterALossOnceAndCountItAsConflicting()
    {
        shard.define(campaign(42).budgetMicros(100).build(), T0_MILLIS);
        bid(42, 10_000, T0_MILLIS);
        shard.loss(requestId, 42, T0_MILLIS + 1);
        shard.win(requestId, 42, 8_000, T0_MILLIS + 2);
        shard.win(requestId, 42, 8_000, T0_MILLIS + 3);
        shard.loss(requestId, 42, T0_MILLIS + 4);
        assertThat(shard.snapshot(42).spentNanos()).isEqualTo(8_000);
        assertThat(shard.snapshot(42).reservedNanos()).isZero();
        assertThat(shard.counters().conflictingNotices()).isEqualTo(1);
        assertThat(shard.counters().duplicateNotices()).isEqualTo(2);
    }

    @Test
    void shouldBookALateWinOnceWhenItIsResent()
    {
        shard.define(campaign(42).budgetMicros(100).build(), T0_MILLIS);
        bid(42, 10_000, T0_MILLIS);
        shard.tick(T0_MILLIS + TTL);
        shard.win(requestId, 42, 10_000, T0_MILLIS + TTL + 1);
        shard.win(requestId, 42, 10_000, T0_MILLIS + TTL + 2);
        assertThat(shard.snapshot(42).spentNanos()).isEqualTo(10_000);
        assertThat(shard.counters().lateWins()).isEqualTo(1);
        assertThat(shard.counters().duplicateNotices()).isEqualTo(1);
    }

    @Test
    void shouldForgetASettledNoticeOnceTheDedupeWindowHasPassed()
    {
        final long window = 2 * TTL;
        shard.define(campaign(42).budgetMicros(100).build(), T0_MILLIS);
        bid(42, 10_000, T0_MILLIS);
        shard.win(requestId, 42, 1_000, T0_MILLIS);
        shard.win(requestId, 42, 1_000, T0_MILLIS + window - 1);
        assertThat(shard.settledNotices()).isEqualTo(1);
        shard.tick(T0_MILLIS + window);
        assertThat(shard.settledNotices()).isZero();
        shard.win(requestId, 42, 1_000, T0_MILLIS + window);
        assertThat(shard.snapshot(42).spentNanos()).isEqualTo(2_000);
        assertThat(shard.counters().duplicateNotices()).isEqualTo(1);
        assertThat(shard.counters().lateWins()).isEqualTo(1);
    }

    @Test
    void shouldRememberNothingWithoutADedupeWindow()
    {
        final PacingShard noWindow = new PacingShard(new PacingPolicy(TTL, 1_000, 0), 16);
        noWindow.define(campaign(42).budgetMicros(100).build(), T0_MILLIS);
        noWindow.bid(1, 42, 10_000, T0_MILLIS);
        noWindow.win(1, 42, 1_000, T0_MILLIS);
        noWindow.win(1, 42, 1_000, T0_MILLIS);
        assertThat(noWindow.snapshot(42).spentNanos()).isEqualTo(2_000);
        assertThat(noWindow.counters().duplicateNotices()).isZero();
    }

    @Test
    void shouldMatchNoticesByRequestAndCampaign()
    {
        shard.define(campaign(1).budgetMicros(100).build(), T0_MILLIS);
        shard.define(campaign(2).budgetMicros(100).build(), T0_MILLIS);
        assertThat(shard.bid(7, 1, 1_000, T0_MILLIS)).isEqualTo(Reason.NONE);
        assertThat(shard.bid(7, 2, 2_000, T0_MILLIS)).isEqualTo(Reason.NONE);
        shard.loss(7, 2, T0_MILLIS);
        assertThat(shard.snapshot(1).reservedNanos()).isEqualTo(1_000);
        assertThat(shard.snapshot(2).reservedNanos()).isZero();
        shard.win(7, 1, 1_000, T0_MILLIS);
        assertThat(shard.snapshot(1).spentNanos()).isEqualTo(1_000);
        assertThat(shard.openReservations()).isZero();
    }

    @Test
    void shouldIgnoreNegativeWinPriceAndCountIt()
    {
        shard.define(campaign(42).build(), T0_MILLIS);
        bid(42, 1_000, T0_MILLIS);
        shard.win(requestId, 42, -1, T0_MILLIS);
        assertThat(shard.counters().invalidNotices()).isEqualTo(1);
        assertThat(shard.snapshot(42).reservedNanos()).isEqualTo(1_000);
    }

    @Test
    void shouldCountNoticesForUnknownCampaigns()
    {
        shard.win(1, 99, 1_000, T0_MILLIS);
        shard.loss(2, 99, T0_MILLIS);
        assertThat(shard.counters().unknownCampaignNotices()).isEqualTo(2);
    }

    @Test
    void shouldKeepSpentAndReservedAcrossRedefinition()
    {
        shard.define(campaign(42).budgetMicros(100).build(), T0_MILLIS);
        bid(42, 10_000, T0_MILLIS);
        shard.win(requestId, 42, 10_000, T0_MILLIS);
        bid(42, 5_000, T0_MILLIS);
        shard.define(campaign(42).budgetMicros(200).maxBidCpmMicros(9_000).build(), T0_MILLIS + 1);
        final CampaignSnapshot s = shard.snapshot(42);
        assertThat(s.spentNanos()).isEqualTo(10_000);
        assertThat(s.reservedNanos()).isEqualTo(5_000);
        assertThat(s.definition().budgetMicros()).isEqualTo(200);
        assertThat(bid(42, 9_001, T0_MILLIS + 1)).isEqualTo(Reason.BID_ABOVE_MAX);
    }

    @Test
    void shouldStopCampaignWhoseBudgetIsLoweredBelowSpend()
    {
        shard.define(campaign(42).budgetMicros(100).build(), T0_MILLIS);
        bid(42, 50_000, T0_MILLIS);
        shard.win(requestId, 42, 50_000, T0_MILLIS);
        shard.define(campaign(42).budgetMicros(40).build(), T0_MILLIS + 1);
        assertThat(bid(42, 1, T0_MILLIS + 2)).isEqualTo(Reason.BUDGET_EXHAUSTED);
    }

    @Test
    void shouldCountEveryDecisionByReason()
    {
        shard.define(campaign(42).budgetMicros(10).maxBidCpmMicros(20_000).build(), T0_MILLIS);
        bid(42, 10_000, T0_MILLIS);
        bid(42, 10_000, T0_MILLIS);
        bid(42, 30_000, T0_MILLIS);
        bid(43, 1, T0_MILLIS);
        assertThat(shard.counters().decisions(Reason.NONE)).isEqualTo(1);
        assertThat(shard.counters().decisions(Reason.BUDGET_EXHAUSTED)).isEqualTo(1);
        assertThat(shard.counters().decisions(Reason.BID_ABOVE_MAX)).isEqualTo(1);
        assertThat(shard.counters().decisions(Reason.UNKNOWN_CAMPAIGN)).isEqualTo(1);
        assertThat(shard.snapshot(42).bids()).isEqualTo(1);
        assertThat(shard.snapshot(42).noBids()).isEqualTo(2);
    }

    @Test
    void shouldNeverLetTimeRunBackwards()
    {
        shard.define(campaign(42).budgetMicros(10).build(), T0_MILLIS);
        bid(42, 10_000, T0_MILLIS + TTL);
        shard.tick(T0_MILLIS + 2 * TTL);
        // an event stamped earlier (another ingress thread's clock) is decided at shard time
        assertThat(shard.bid(99, 42, 10_000, T0_MILLIS)).isEqualTo(Reason.NONE);
        assertThat(shard.nowMillis()).isEqualTo(T0_MILLIS + 2 * TTL);
    }
}
