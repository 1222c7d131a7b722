package io.pacer.model;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.openjdk.jol.info.ClassLayout;
import org.openjdk.jol.info.FieldLayout;
import org.openjdk.jol.vm.VM;

import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import java.util.stream.Collectors;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * The campaign book's fields as this JVM lays them out (JOL): with a million campaigns nearly every
 * bid's book is a cache miss, and what a bid reads is kept in one short run that {@link
 * CampaignBook#touch} reads a field of in every line. A field added in the wrong place would
 * lengthen the run, or leave a line of it untouched, and nothing else would fail.
 */
final class CampaignBookLayoutTest
{
    /**
     * What {@link CampaignBook#decide} and a win or loss notice read or write, ASAP or EVEN, with or
     * without a daily cap (the pacing policy aside, read at a re-plan, and what a day's roll reads).
     */
    private static final List<String> READ_BY_A_BID = List.of("id", "startMillis", "endMillis", "maxBidCpmMicros",
        "dayStartMillis", "dayEndMillis", "budgetNanos", "dailyBudgetNanos", "spentNanos", "reservedNanos",
        "todaySpentNanos", "bids", "noBids", "openReservations", "nextReplanMillis", "lifetimeFromMillis",
        "lifetimeFromNanos", "dailyFromMillis", "dailyFromNanos", "wins", "losses", "active", "hasLifetimeLine", "hasDailyLine", "rule");
    /** What {@link CampaignBook#touch} reads, in offset order. */
    private static final List<String> TOUCHED = List.of("id", "spentNanos", "lifetimeFromNanos", "rule");
    private static final int CACHE_LINE = 64;

    private static Map<String, FieldLayout> fields;

    @BeforeAll
    static void layOut()
    {
        // the layout the pacer runs with: Java 17's, references compressed (heaps under 32 GB)
        assumeTrue(VM.current().sizeOfField("java.lang.Object") == 4, "compressed references");
        fields = ClassLayout.parseClass(CampaignBook.class).fields().stream()
            .collect(Collectors.toMap(FieldLayout::name, Function.identity()));
        // a field renamed or removed is named here, not met as a null below
        assertThat(fields).containsKeys(READ_BY_A_BID.toArray(String[]::new)).containsKeys(TOUCHED.toArray(String[]::new));
    }

    @Test
    void shouldLayWhatABidAndItsNoticeReadInOneRunOf176BytesFromTheId()
    {
        final long start = READ_BY_A_BID.stream().mapToLong(name -> fields.get(name).offset()).min().orElseThrow();
        final long end = runEnd();

        assertThat(start).isEqualTo(fields.get("id").offset());
        assertThat(end - start).isLessThanOrEqualTo(176);
    }

    @Test
    void shouldTouchAFieldInEveryCacheLineOfTheRunWhereverTheBookStarts()
    {
        final long[] touched = TOUCHED.stream().mapToLong(name -> fields.get(name).offset()).toArray();
        final long end = runEnd();

        assertThat(touched).isSorted();
        assertThat(touched[0]).isEqualTo(fields.get("id").offset());
        for (int i = 1; i < touched.length; i++)
        {
            assertThat(touched[i] - touched[i - 1]).as("gap before %s", TOUCHED.get(i)).isLessThanOrEqualTo(CACHE_LINE);
        }
        assertThat(end - 1 - touched[touched.length - 1]).isLessThan(CACHE_LINE);
        assertThat(Arrays.stream(touched).distinct().count()).isEqualTo(TOUCHED.size());
    }

    /** Where the run of what a bid reads ends: the end of its last field. */
    private static long runEnd()
    {
        return READ_BY_A_BID.stream().mapToLong(name -> fields.get(name).offset() + fields.get(name).size()).max().orElseThrow();
    }
}
