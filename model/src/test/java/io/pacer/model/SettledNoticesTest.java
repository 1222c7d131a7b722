package io.pacer.model;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.util.ArrayDeque;
import java.util.HashMap;
import java.util.Map;
import java.util.SplittableRandom;

import static org.assertj.core.api.Assertions.assertThat;

/** The dedupe window answers exactly as a plain map of the notices settled within it. */
class SettledNoticesTest
{
    private record Key(long requestId, long campaignId)
    {
    }

    private record Settled(Key key, long atMillis)
    {
    }

    @ParameterizedTest
    @ValueSource(longs = {1, 2, 3, 4, 5})
    void shouldAnswerAsAMapOfTheNoticesWithinTheWindowThroughGrowthAndExpiry(final long seed)
    {
        answerAsAMap(seed, 500, 5_000);
    }

    /** Windows of tens of thousands of notices: several doublings, each moving its notices over while some expire. */
    @ParameterizedTest
    @ValueSource(longs = {6, 7, 8})
    void shouldAnswerAsAMapWhileNoticesMoveIntoTheDoubledStructures(final long seed)
    {
        answerAsAMap(seed, 40_000, 1_000_000);
    }

    /** A replay's size hint, given a little way in: the next growth goes straight to it, and nothing answers differently. */
    @ParameterizedTest
    @ValueSource(longs = {9, 10})
    void shouldAnswerAsAMapWhenAHintSizesItPartWay(final long seed)
    {
        answerAsAMap(seed, 40_000, 1_000_000, 60_000);
    }

    /**
     * A hint of six times the window's notices: expiries leave their index entries, which sweeps of
     * the whole index remove each time the ring is about to come round to them.
     */
    @ParameterizedTest
    @ValueSource(longs = {11, 12})
    void shouldAnswerAsAMapWhileAHintDefersExpiryToSweepsOfTheIndex(final long seed)
    {
        final SettledNotices notices = answerAsAMap(seed, 20_000, 1_000_000, 60_000, Integer.MAX_VALUE);
        assertThat(notices.indexEntries()).as("removals deferred").isGreaterThan((int)notices.size());
    }

    /**
     * A hint under the window's notices (~40,000): the window outgrows the hint's 32,768 while expiry
     * is deferred, the ring coming round to the passed notices' slots with few of them passed as it
     * fills (removed one by one), and the structures then doubling.
     */
    @ParameterizedTest
    @ValueSource(longs = {13, 14})
    void shouldAnswerAsAMapWhenTheWindowOutgrowsTheHintWhileExpiryIsDeferred(final long seed)
    {
        final SettledNotices notices = answerAsAMap(seed, 80_000, 1_000_000, 20_000, Integer.MAX_VALUE);
        assertThat(notices.footprintBytes()).as("grown past the hint's size").isGreaterThanOrEqualTo(24L * 65_536);
    }

    /** Withdrawing the hint removes every passed notice's entry, and expiry is immediate again after it. */
    @ParameterizedTest
    @ValueSource(longs = {15, 16})
    void shouldRemoveEveryDeferredEntryWhenTheHintIsWithdrawn(final long seed)
    {
        final SettledNotices notices = answerAsAMap(seed, 40_000, 1_000_000, 60_000, 100_000);
        assertThat(notices.indexEntries()).as("expiry removes at once").isEqualTo(notices.size());
    }

    private static void answerAsAMap(final long seed, final long window, final long requestIds)
    {
        answerAsAMap(seed, window, requestIds, 0);
    }

    private static void answerAsAMap(final long seed, final long window, final long requestIds, final int hint)
    {
        answerAsAMap(seed, window, requestIds, hint, Integer.MAX_VALUE);
    }

    /**
     * Settles 200,000 random notices at random times, checking every answer against a plain map.
     *
     * @param hint     notices to {@link SettledNotices#expect} after the first 1,500 settled, 0 for none
     * @param withdraw after how many settled the hint is withdrawn ({@code expect(0)}), if it was given
     * @return the notices settled
     */
    private static SettledNotices answerAsAMap(final long seed, final long window, final long requestIds, final int hint,
        final int withdraw)
    {
        final SettledNotices notices = new SettledNotices(window);
        final Map<Key, Integer> model = new HashMap<>();
        final ArrayDeque<Settled> order = new ArrayDeque<>();
        final SplittableRandom random = new SplittableRandom(seed);
        long now = 1_000;
        for (int i = 0; i < 200_000; i++)
        {
            now += random.nextInt(100) == 0 ? random.nextInt(300) : random.nextInt(2);
            notices.expire(now);
            while (!order.isEmpty() && order.peekFirst().atMillis() + window <= now)
            {
                model.remove(order.pollFirst().key());
            }
            // few request ids and campaigns: many collisions, repeats and shared request ids
            final Key key = new Key(random.nextLong(requestIds), random.nextLong(4));
            final int expected = model.getOrDefault(key, SettledNotices.NONE);
            // one settle in four without the lookup before it (which a settle otherwise reuses)
            if (random.nextInt(4) != 0)
            {
                assertThat(notices.outcome(key.requestId(), key.campaignId())).isEqualTo(expected);
            }
            final boolean won = random.nextBoolean();
            if (i == 1_500 && hint > 0)
            {
                notices.expect(hint);
            }
            if (i == withdraw && hint > 0)
            {
                assertThat(notices.indexEntries()).as("removals deferred").isGreaterThan((int)notices.size());
                notices.expect(0);
                assertThat(notices.indexEntries()).as("no passed notice's entry left").isEqualTo(notices.size());
            }
            notices.settle(key.requestId(), key.campaignId(), won, now);
            if (expected == SettledNotices.NONE)
            {
                order.addLast(new Settled(key, now));
                model.put(key, won ? SettledNotices.WON : SettledNotices.LOST);
            }
            else if (won)
            {
                model.put(key, SettledNotices.WON);
            }
            assertThat(notices.size()).isEqualTo(model.size());
            if (i % 40_000 == 39_999)
            {
                // mid-run, often while notices move into doubled structures: the snapshot holds the same
                assertSameAs(model, restored(notices, window));
            }
        }
        assertSameAs(model, notices);
        return notices;
    }

    /**
     * A sweep closes up a run of entries that wraps round the index's end, moving the live entries far
     * from home (whose distance it reads from their key) back over passed ones; a notice looked up,
     * then passed, then settled again is settled anew.
     */
    @Test
    void shouldSweepPassedEntriesOutOfARunThatWrapsRoundTheIndexEnd()
    {
        final SettledNotices notices = new SettledNotices(100);
        // deferring, in a ring of 1,024 notices with an index of 2,048 positions
        notices.expect(1_024);
        final long[] colliding = requestIdsWithHome(2_046, 2_047, 20);
        for (int i = 0; i < 10; i++)
        {
            notices.settle(colliding[i], 7, false, 1_000);
        }
        for (long i = 0; i < 200; i++)
        {
            notices.settle(1_000_000 + i, 8, false, 1_000);
        }
        // ten more from the same home, 10 to 19 from it, past the index's end
        for (int i = 10; i < 20; i++)
        {
            notices.settle(colliding[i], 7, true, 1_050);
        }
        for (long i = 0; i < 700; i++)
        {
            notices.settle(2_000_000 + i, 8, true, 1_050);
        }
        assertThat(notices.outcome(colliding[4], 7)).isEqualTo(SettledNotices.LOST);
        notices.expire(1_100);
        assertThat(notices.size()).isEqualTo(710);
        assertThat(notices.indexEntries()).as("removals deferred").isEqualTo(920);
        notices.settle(colliding[4], 7, false, 1_100);
        assertThat(notices.size()).as("settled anew, not found where it passed").isEqualTo(711);
        assertThat(notices.outcome(colliding[3], 7)).isEqualTo(SettledNotices.NONE);

        // the ring comes round to the 210 passed notices' slots with the 104th: a sweep
        for (long i = 0; i < 104; i++)
        {
            notices.settle(3_000_000 + i, 8, false, 1_100);
        }
        assertThat(notices.size()).isEqualTo(815);
        assertThat(notices.indexEntries()).as("swept").isEqualTo(815);
        for (int i = 0; i < 20; i++)
        {
            assertThat(notices.outcome(colliding[i], 7)).as("colliding %d", i)
                .isEqualTo(i >= 10 ? SettledNotices.WON : i == 4 ? SettledNotices.LOST : SettledNotices.NONE);
        }
        for (long i = 0; i < 700; i++)
        {
            assertThat(notices.outcome(2_000_000 + i, 8)).isEqualTo(SettledNotices.WON);
        }
        assertThat(notices.outcome(1_000_000, 8)).isEqualTo(SettledNotices.NONE);
        assertThat(notices.outcome(3_000_103, 8)).isEqualTo(SettledNotices.LOST);
    }

    /** Withdrawing the hint with a few notices passed (an eighth of the ring or fewer) removes their entries one by one. */
    @Test
    void shouldRemoveTheEntriesOfAFewPassedNoticesWhenTheHintIsWithdrawn()
    {
        final SettledNotices notices = new SettledNotices(100);
        notices.expect(1_024);
        for (long i = 0; i < 10; i++)
        {
            notices.settle(i, 7, false, 1_000);
        }
        for (long i = 10; i < 510; i++)
        {
            notices.settle(i, 7, true, 1_050);
        }
        notices.expire(1_100);
        assertThat(notices.indexEntries()).isEqualTo(510);

        notices.expect(0);
        assertThat(notices.indexEntries()).isEqualTo(500);
        notices.expect(0);
        assertThat(notices.indexEntries()).as("nothing more to remove").isEqualTo(500);
        assertThat(notices.outcome(3, 7)).isEqualTo(SettledNotices.NONE);
        assertThat(notices.outcome(300, 7)).isEqualTo(SettledNotices.WON);
        notices.expire(1_150);
        assertThat(notices.size()).isZero();
        assertThat(notices.indexEntries()).as("expiry removes at once again").isZero();
    }

    /** {@code count} request ids whose key with campaign 7 has its home at {@code home} in an index of {@code mask + 1}. */
    private static long[] requestIdsWithHome(final int home, final int mask, final int count)
    {
        final long[] ids = new long[count];
        int found = 0;
        for (long id = 1; found < count; id++)
        {
            if (((int)SettledNotices.hash(id, 7) & mask) == home)
            {
                ids[found++] = id;
            }
        }
        return ids;
    }

    private static void assertSameAs(final Map<Key, Integer> model, final SettledNotices notices)
    {
        assertThat(notices.size()).isEqualTo(model.size());
        for (final Map.Entry<Key, Integer> e : model.entrySet())
        {
            assertThat(notices.outcome(e.getKey().requestId(), e.getKey().campaignId())).isEqualTo(e.getValue());
        }
    }

    private static SettledNotices restored(final SettledNotices notices, final long window)
    {
        try
        {
            final ByteArrayOutputStream bytes = new ByteArrayOutputStream();
            notices.write(new DataOutputStream(bytes));
            final SettledNotices restored = new SettledNotices(window);
            restored.read(new DataInputStream(new ByteArrayInputStream(bytes.toByteArray())));
            return restored;
        }
        catch (final java.io.IOException ex)
        {
            throw new java.io.UncheckedIOException(ex);
        }
    }

    /** The old index keeps what has moved over or expired; it must never answer for it. */
    @Test
    void shouldForgetNoticesThatExpireWhileTheStructuresGrowAndSettleThemAnew()
    {
        final SettledNotices notices = new SettledNotices(100);
        for (long i = 0; i < 1024; i++)
        {
            notices.settle(i, 7, i % 2 == 0, 1_000);
        }
        for (long i = 5_000; i < 5_008; i++)
        {
            notices.settle(i, 7, false, 1_050);
        }
        // the doubling has moved sixteen notices over (with the eighth settled after it); they and
        // the rest of the first 1024 now expire, from the new index and the old one
        notices.expire(1_100);
        assertThat(notices.size()).isEqualTo(8);
        for (long i = 0; i < 1024; i++)
        {
            assertThat(notices.outcome(i, 7)).isEqualTo(SettledNotices.NONE);
        }
        notices.settle(3, 7, false, 1_100);
        notices.settle(4, 7, true, 1_100);
        notices.settle(3, 7, true, 1_101);
        assertThat(notices.outcome(3, 7)).isEqualTo(SettledNotices.WON);
        assertThat(notices.outcome(4, 7)).isEqualTo(SettledNotices.WON);
        assertThat(notices.outcome(5, 7)).isEqualTo(SettledNotices.NONE);
        for (long i = 5_000; i < 5_008; i++)
        {
            assertThat(notices.outcome(i, 7)).isEqualTo(SettledNotices.LOST);
        }
        assertThat(notices.size()).isEqualTo(10);
        notices.expire(1_200);
        assertThat(notices.size()).isZero();
        assertThat(notices.outcome(3, 7)).isEqualTo(SettledNotices.NONE);
    }

    @Test
    void shouldReadTheNotedIndexPositionsAndChangeNothingThoughItGrowsBetweenNoteAndTouch() throws Exception
    {
        final SettledNotices notices = new SettledNotices(60_000);
        notices.settle(1, 7, true, 1_000);
        notices.note(1, 7);
        // the settled notice's home position holds its entry: what the touch read is not 0
        assertThat(notices.touchNoted()).isNotZero();
        assertThat(notices.touchNoted()).isZero(); // the notes are forgotten once touched
        notices.note(1, 7);
        notices.note(2, 7);
        long request = 2;
        while (notices.size() < 1_500) // past the first capacity: it grows, and is still moving notices over
        {
            notices.settle(request++, 7, false, 1_000);
        }
        notices.touchNoted(); // positions noted against the smaller index
        notices.note(1, 7);
        notices.note(request + 1, 7);
        notices.touchNoted(); // noted and touched while both indexes are consulted
        final ByteArrayOutputStream before = new ByteArrayOutputStream();
        notices.write(new DataOutputStream(before));
        notices.note(1, 7);
        notices.touchNoted();
        final ByteArrayOutputStream after = new ByteArrayOutputStream();
        notices.write(new DataOutputStream(after));
        assertThat(after.toByteArray()).isEqualTo(before.toByteArray());
        assertThat(notices.outcome(1, 7)).isEqualTo(SettledNotices.WON);
        assertThat(notices.outcome(2, 7)).isEqualTo(SettledNotices.LOST);
        assertThat(notices.outcome(request, 7)).isEqualTo(SettledNotices.NONE);
    }

    @Test
    void shouldRestoreTheSameNoticesAndSettleTimesFromItsSnapshot() throws Exception
    {
        final SettledNotices original = new SettledNotices(1_000);
        for (long i = 0; i < 5_000; i++)
        {
            original.settle(i, i % 7, i % 3 == 0, 10_000 + i / 10);
        }
        final ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        original.write(new DataOutputStream(bytes));
        final SettledNotices restored = new SettledNotices(1_000);
        restored.read(new DataInputStream(new ByteArrayInputStream(bytes.toByteArray())));
        assertThat(restored.size()).isEqualTo(5_000);
        for (final long now : new long[] {10_200, 10_350, 10_499, 10_500})
        {
            original.expire(now + 1_000);
            restored.expire(now + 1_000);
            assertThat(restored.size()).isEqualTo(original.size());
        }
        for (long i = 0; i < 5_000; i++)
        {
            assertThat(restored.outcome(i, i % 7)).isEqualTo(original.outcome(i, i % 7));
        }
    }

    @Test
    void shouldCostTwentyFourBytesAndABitANoticeAtTheSizeItGrewTo()
    {
        final SettledNotices notices = new SettledNotices(60_000);
        for (long i = 0; i < 1 << 20; i++)
        {
            notices.settle(i, 42, true, 1_000_000);
        }
        assertThat(notices.footprintBytes()).isLessThanOrEqualTo(24L * (1 << 20) + (1 << 20) / 8 + 16L * 1024);
    }

    @Test
    void shouldGrowStraightToTheExpectedSizeOnceFullAndNotBefore()
    {
        final SettledNotices notices = new SettledNotices(60_000);
        final long empty = notices.footprintBytes();
        notices.expect(100_000);
        for (long i = 0; i < 1_024; i++)
        {
            notices.settle(i, 42, false, 1_000_000);
        }
        assertThat(notices.footprintBytes()).as("nothing grows before it is full").isEqualTo(empty);

        notices.settle(1_024, 42, true, 1_000_000);
        final long grown = notices.footprintBytes();
        assertThat(grown).as("one growth, to 2^17 notices").isGreaterThanOrEqualTo(24L * (1 << 17));
        for (long i = 1_025; i < 1 << 17; i++)
        {
            notices.settle(i, 42, true, 1_000_000);
        }
        assertThat(notices.footprintBytes()).as("no doubling on the way").isLessThanOrEqualTo(grown);
        assertThat(notices.size()).isEqualTo(1 << 17);
        assertThat(notices.outcome(7, 42)).isEqualTo(SettledNotices.LOST);
        assertThat(notices.outcome(1_024, 42)).isEqualTo(SettledNotices.WON);
        assertThat(notices.outcome((1 << 17) - 1, 42)).isEqualTo(SettledNotices.WON);
        assertThat(notices.outcome(1 << 17, 42)).isEqualTo(SettledNotices.NONE);
    }

    @Test
    void shouldMakeTheRingsChunksOnlyAsTheRingReachesThem()
    {
        // grown straight to 2^21 notices: a ring of four chunks of 2^20 longs (two longs a notice)
        final SettledNotices notices = new SettledNotices(60_000);
        notices.expect((1 << 20) + 1);
        final int settled = (1 << 20) + 100_000;
        for (long i = 0; i < settled; i++)
        {
            notices.settle(i, 42, i % 3 == 0, 1_000_000);
        }
        final long indexAndBits = 4L * (1 << 22) + 8L * (1 << 15);
        assertThat(notices.footprintBytes() - indexAndBits).as("three of the ring's four chunks, and the time marks")
            .isBetween(3L * 8 * (1 << 20), 3L * 8 * (1 << 20) + 16L * 1024);
        for (final long i : new long[] {0, 1, (1 << 19) + 7, 1 << 20, settled - 1})
        {
            assertThat(notices.outcome(i, 42)).as("notice %d", i).isEqualTo(i % 3 == 0 ? SettledNotices.WON : SettledNotices.LOST);
        }
        assertThat(notices.outcome(settled, 42)).isEqualTo(SettledNotices.NONE);

        notices.expect(0);
        assertThat(notices.footprintBytes() - indexAndBits).as("the hint withdrawn: all four, as a live table holds them")
            .isBetween(4L * 8 * (1 << 20), 4L * 8 * (1 << 20) + 16L * 1024);
        assertThat(notices.outcome(settled - 1, 42)).isEqualTo((settled - 1) % 3 == 0 ? SettledNotices.WON : SettledNotices.LOST);
    }

    @Test
    void shouldMakeTheWholeRingWhenItDoublesWithNoHint()
    {
        final SettledNotices notices = new SettledNotices(60_000);
        for (long i = 0; i <= 1 << 20; i++)
        {
            notices.settle(i, 42, false, 1_000_000);
        }
        // just doubled to 2^21 notices, the old structures still held while they move over: the new
        // ring made whole at once (four chunks), though it has reached only three
        final long oldRingAndIndex = 8L * (1 << 21) + 4L * (1 << 21);
        final long newIndex = 4L * (1 << 22);
        assertThat(notices.footprintBytes() - oldRingAndIndex - newIndex).isGreaterThanOrEqualTo(8L * (1 << 22));
    }

    @Test
    void shouldDoubleAgainOnceTheHintIsWithdrawn()
    {
        final SettledNotices notices = new SettledNotices(60_000);
        final long empty = notices.footprintBytes();
        notices.expect(100_000);
        notices.expect(0);
        for (long i = 0; i <= 1_024; i++)
        {
            notices.settle(i, 42, false, 1_000_000);
        }
        assertThat(notices.footprintBytes()).as("doubled, not grown to the withdrawn hint")
            .isGreaterThan(empty).isLessThan(24L * (1 << 17));
        assertThat(notices.outcome(1_024, 42)).isEqualTo(SettledNotices.LOST);
    }
}
