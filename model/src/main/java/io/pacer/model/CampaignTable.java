package io.pacer.model;

import org.agrona.collections.Hashing;

import java.util.function.Consumer;

/**
 * A shard's campaign books by id: open addressing with linear probing over one array of books,
 * each probe comparing the book's own id. Campaigns are added and replaced, never removed.
 *
 * <p>Why not Agrona's {@code Long2ObjectHashMap}: it keeps keys and values in two arrays, so with a
 * million campaigns a bid's lookup missed the cache twice (the key's slot, then the value's)
 * before it reached the book, which misses anyway. Here the slot is the only miss before the book.
 * A probe past another campaign reads that campaign's book, one more miss, so the table stays at
 * most a quarter full (16 to 32 bytes a campaign), which keeps those to about one lookup in eight
 * (11.9% of ids 1 to 1,000,000 in 4,194,304 slots, by Agrona's {@code Hashing.hash}).
 */
final class CampaignTable
{
    private static final int MIN_CAPACITY = 64;
    private CampaignBook[] books = new CampaignBook[MIN_CAPACITY];
    private int size;
    /**
     * The home slots {@link #note} noted since the last {@link #touchNoted}, and the ids looked for
     * there. The slot is derivable from the id, but hashed here, once, at the note: hashing the ids
     * again in the touch's loops made a bid 1.28-1.38× slower at a million campaigns (JMH
     * batchNotedFirst, bench/BENCHMARKS.md), its loops too long for their misses to overlap as well.
     */
    private final int[] noted = new int[PacingShard.NOTED];
    private final long[] notedIds = new long[PacingShard.NOTED];
    private int notedCount;

    /** The book of campaign {@code id}, or null. */
    CampaignBook get(final long id)
    {
        final CampaignBook[] books = this.books;
        final int mask = books.length - 1;
        for (int i = Hashing.hash(id, mask); ; i = (i + 1) & mask)
        {
            final CampaignBook book = books[i];
            if (book == null || book.id() == id)
            {
                return book;
            }
        }
    }

    /**
     * Notes where campaign {@code id}'s book will be looked for, reading nothing, for {@link
     * #touchNoted}; past {@link PacingShard#NOTED} notes, notes nothing.
     */
    void note(final long id)
    {
        if (notedCount < PacingShard.NOTED)
        {
            noted[notedCount] = Hashing.hash(id, books.length - 1);
            notedIds[notedCount++] = id;
        }
    }

    /**
     * Reads the home slots {@link #note noted} since the last call, then the books in them, then,
     * where a home slot holds another campaign (a collision), the book in the slot after it; and
     * forgets the notes. The first two are loops of independent loads, so that all of a loop's cache
     * misses are in flight at once. Looking each book up in turn, the slot's miss and then the book's waited one on
     * the other, and the reorder buffer held the misses of two or three lookups at most (with a
     * million campaigns, 0.5 µs of a decision's 3.7 in the profile).
     * <p>
     * The third loop is for a lookup that probes past its home slot: 11.9% of them with ids 1 to
     * 1,000,000 in 4,194,304 slots. Its book was otherwise not read ahead, and the lookup then waited
     * on that miss alone. The loop waits on the home books' ids, which the loop before has in flight
     * already. A lookup whose book is two or more slots on (2.6% of all lookups there) has the first
     * book it passes read ahead, and the rest is left to the lookup itself.
     *
     * @return what was read (means nothing: keep it, so the reads are not optimised away)
     */
    long touchNoted()
    {
        final CampaignBook[] books = this.books;
        final int mask = books.length - 1;
        long read = 0;
        for (int i = 0; i < notedCount; i++)
        {
            read += books[noted[i] & mask] == null ? 0 : 1;
        }
        for (int i = 0; i < notedCount; i++)
        {
            final CampaignBook book = books[noted[i] & mask];
            read += book == null ? 0 : book.touch();
        }
        for (int i = 0; i < notedCount; i++)
        {
            final int home = noted[i] & mask;
            final CampaignBook book = books[home];
            if (book != null && book.id() != notedIds[i])
            {
                final CampaignBook next = books[(home + 1) & mask];
                read += next == null ? 0 : next.touch();
            }
        }
        notedCount = 0;
        return read;
    }

    /** Adds a book for a campaign id not yet in the table (one already there is refused). */
    void add(final CampaignBook book)
    {
        if (4L * (size + 1) > books.length)
        {
            grow();
        }
        insert(books, book);
        size++;
    }

    /**
     * Makes room for {@code campaigns} books in all, at most a quarter full, in one step: a bulk load
     * that knows its size grows the table once instead of doubling it twenty times, each doubling
     * storing every book again (under G1 each store into the old table array is a card to refine:
     * ~0.4 s of a million-campaign first start). Never shrinks.
     */
    void ensureCapacity(final int campaigns)
    {
        final long wanted = 4L * campaigns;
        if (wanted > books.length)
        {
            resize((int)Math.min(1 << 30, Long.highestOneBit(wanted - 1) << 1));
        }
    }

    /** The table's slots (a power of two). */
    int capacity()
    {
        return books.length;
    }

    private void grow()
    {
        resize(books.length * 2);
    }

    private void resize(final int capacity)
    {
        final CampaignBook[] larger = new CampaignBook[capacity];
        for (final CampaignBook book : books)
        {
            if (book != null)
            {
                insert(larger, book);
            }
        }
        books = larger;
    }

    private static void insert(final CampaignBook[] books, final CampaignBook book)
    {
        final int mask = books.length - 1;
        int i = Hashing.hash(book.id(), mask);
        for (CampaignBook other; (other = books[i]) != null; i = (i + 1) & mask)
        {
            if (other.id() == book.id())
            {
                throw new IllegalArgumentException("campaign " + Long.toUnsignedString(book.id()) + " is already in the table");
            }
        }
        books[i] = book;
    }

    int size()
    {
        return size;
    }

    boolean isEmpty()
    {
        return size == 0;
    }

    /** The campaign ids, in table order. */
    long[] ids()
    {
        final long[] ids = new long[size];
        int n = 0;
        for (final CampaignBook book : books)
        {
            if (book != null)
            {
                ids[n++] = book.id();
            }
        }
        return ids;
    }

    /** Each book, in table order (callers that produce output sort by id; see {@link CampaignOrder}). */
    void forEach(final Consumer<CampaignBook> action)
    {
        for (final CampaignBook book : books)
        {
            if (book != null)
            {
                action.accept(book);
            }
        }
    }
}
