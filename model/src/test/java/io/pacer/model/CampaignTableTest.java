package io.pacer.model;

import org.agrona.collections.Hashing;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;

import static io.pacer.model.TestCampaign.campaign;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class CampaignTableTest
{
    private final CampaignTable table = new CampaignTable();

    private static CampaignBook book(final long id)
    {
        return new CampaignBook(campaign(id).build(), PacingPolicy.DEFAULT);
    }

    @Test
    void shouldFindEveryBookAddedThroughGrowthAndNoOther()
    {
        final SplittableRandom random = new SplittableRandom(14);
        final List<CampaignBook> added = new ArrayList<>();
        for (int i = 0; i < 10_000; i++)
        {
            // dense ids, and ids anywhere in the unsigned 64-bit range, including the sign bit
            final long id = i % 2 == 0 ? i : random.nextLong();
            if (table.get(id) == null)
            {
                final CampaignBook book = book(id);
                table.add(book);
                added.add(book);
            }
        }
        assertThat(table.size()).isEqualTo(added.size());
        for (final CampaignBook book : added)
        {
            assertThat(table.get(book.id())).isSameAs(book);
        }
        assertThat(table.get(1)).isNull();
        assertThat(table.get(-2)).isNull();
    }

    @Test
    void shouldMakeRoomForABulkLoadInOneStepAndKeepItsBooksFindable()
    {
        table.add(book(7));
        table.ensureCapacity(5_000);
        final int capacity = table.capacity();
        assertThat(capacity).isEqualTo(1 << 15); // 4 x 5,000 rounded up to a power of two
        for (long id = 1; id <= 5_000; id++)
        {
            if (id != 7)
            {
                table.add(book(id));
            }
        }
        assertThat(table.capacity()).as("no growth while the load fits").isEqualTo(capacity);
        for (long id = 1; id <= 5_000; id++)
        {
            assertThat(table.get(id).id()).isEqualTo(id);
        }
        for (long id = 5_001; id <= capacity / 4; id++)
        {
            table.add(book(id));
        }
        assertThat(table.capacity()).as("a quarter full").isEqualTo(capacity);
        table.add(book(capacity / 4 + 1));
        assertThat(table.capacity()).as("past a quarter, it grows as before").isEqualTo(2 * capacity);
    }

    @Test
    void shouldNeverShrinkForAHintBelowWhatItHolds()
    {
        for (long id = 1; id <= 1_000; id++)
        {
            table.add(book(id));
        }
        final int capacity = table.capacity();
        table.ensureCapacity(10);
        table.ensureCapacity(1_000);
        assertThat(table.capacity()).isEqualTo(capacity);
        assertThat(table.get(500).id()).isEqualTo(500);
    }

    @Test
    void shouldFindBooksWhoseIdsAllProbeFromTheSameSlot()
    {
        // fifteen ids that all start at slot 0 of the first 64 slots (a sixteenth would grow the table)
        final List<CampaignBook> added = new ArrayList<>();
        for (long id = 0; added.size() < 15; id++)
        {
            if (Hashing.hash(id, 63) == 0)
            {
                final CampaignBook book = book(id);
                table.add(book);
                added.add(book);
            }
        }
        for (final CampaignBook book : added)
        {
            assertThat(table.get(book.id())).isSameAs(book);
        }
        long absent = added.get(added.size() - 1).id() + 1;
        while (Hashing.hash(absent, 63) != 0)
        {
            absent++;
        }
        assertThat(table.get(absent)).isNull();
    }

    @Test
    void shouldRefuseASecondBookForTheSameCampaign()
    {
        final CampaignBook first = book(-1);
        table.add(first);
        assertThatThrownBy(() -> table.add(book(-1)))
            .isInstanceOf(IllegalArgumentException.class)
            .hasMessage("campaign 18446744073709551615 is already in the table");
        assertThat(table.get(-1)).isSameAs(first);
        assertThat(table.size()).isEqualTo(1);
    }

    @Test
    void shouldVisitEachBookOnce()
    {
        for (long id = 1; id <= 100; id++)
        {
            table.add(book(id * 64));
        }
        final List<Long> ids = new ArrayList<>();
        table.forEach(book -> ids.add(book.id()));
        assertThat(ids).hasSize(100).doesNotHaveDuplicates().allMatch(id -> id % 64 == 0 && id > 0 && id <= 6_400);
    }

    @Test
    void shouldTouchTheBooksNotedAndThenForgetTheNotes()
    {
        table.add(book(5));
        table.note(5);
        // its slot held a book (1), then the book's touched fields: id 5, no spend, no plan yet
        assertThat(table.touchNoted()).isEqualTo(1 + 5);
        assertThat(table.touchNoted()).isZero();
    }

    @Test
    void shouldTouchTheBookOneSlotOnWhenTheHomeSlotHoldsAnotherCampaign()
    {
        final long first = 3;
        final long second = sharingHomeWith(first, first + 1);
        table.add(book(first));
        table.add(book(second)); // the slot after the home they share
        table.note(second);
        // the home slot held a book (1), campaign first's, touched (its id), and it was not the one
        // looked for, so the book one slot on was touched too (campaign second's id)
        assertThat(table.touchNoted()).isEqualTo(1 + first + second);
        table.note(first);
        // found at home: nothing one slot on is read
        assertThat(table.touchNoted()).isEqualTo(1 + first);
    }

    @Test
    void shouldTouchNothingOneSlotOnWhenTheCampaignLookedForIsNotThere()
    {
        final long first = 3;
        table.add(book(first));
        table.note(sharingHomeWith(first, first + 1)); // no such campaign; the slot after the home is empty
        assertThat(table.touchNoted()).isEqualTo(1 + first);
    }

    /** The first id from {@code from} on whose home slot in the table is {@code id}'s. */
    private long sharingHomeWith(final long id, final long from)
    {
        final int mask = table.capacity() - 1;
        long other = from;
        while (Hashing.hash(other, mask) != Hashing.hash(id, mask))
        {
            other++;
        }
        return other;
    }

    @Test
    void shouldNoteNoMoreThanItsLimit()
    {
        table.add(book(1));
        for (int i = 0; i < 3 * PacingShard.NOTED; i++)
        {
            table.note(1);
        }
        // each note read campaign 1's slot (1) and its book (id 1): the notes past the limit were not kept
        assertThat(table.touchNoted()).isEqualTo(2L * PacingShard.NOTED);
    }

    @Test
    void shouldStaySafeWhenTheTableGrowsBetweenNoteAndTouch()
    {
        for (long id = 1; id <= 3 * PacingShard.NOTED; id++)
        {
            table.note(id); // noted before any book exists, against the smallest table
        }
        for (long id = 1; id <= 10_000; id++)
        {
            table.add(book(id)); // grows many times over
        }
        // the notes made against the small table land on slots of the grown one: read, harmless
        assertThat(table.touchNoted()).isNotZero();
        assertThat(table.touchNoted()).isZero();
        assertThat(table.get(10_000).id()).isEqualTo(10_000);
    }

    @Test
    void shouldStartEmpty()
    {
        assertThat(table.isEmpty()).isTrue();
        assertThat(table.get(0)).isNull();
        table.add(book(0));
        assertThat(table.isEmpty()).isFalse();
        assertThat(table.get(0).id()).isZero();
    }
}
