package io.pacer.bench;

import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OperationsPerInvocation;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

import java.util.concurrent.TimeUnit;

/**
 * Whether a million campaigns' hot state would miss the cache less in flat arrays than in objects
 * (#14): a batch of {@value #BATCH} lookups of campaigns drawn at random (seeded), each looked up,
 * noted and touched first as the shard did when this was measured ({@code CampaignTable.touchNoted}
 * before d9eb60f: slots, then home books, no second read after a collision), then read and
 * written. Three ways to keep them:
 * <ul>
 * <li>{@code OBJECTS}: as now, a table of references (a quarter full) to objects of 216 bytes
 * laid out as {@code CampaignBook} (the touch reads one field in each line of the bid run);</li>
 * <li>{@code INDEXED_SLAB}: a table of ints (a quarter full) pointing into one {@code long[]} of
 * 24 longs (three lines) a campaign;</li>
 * <li>{@code INLINE_SLAB}: the 24 longs in the table's own slots (a quarter full), no index.</li>
 * </ul>
 * Not the pacer's code: a model of its memory accesses, to decide whether a redesign would pay.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(value = 1, jvmArgsPrepend = {"-Xms3g", "-Xmx3g"})
public class BookStorageBenchmark
{
    private static final int BATCH = 32;
    /** Longs a campaign in a slab: three cache lines. */
    private static final int STRIDE = 24;
    /** The slab's first long that starts a cache line (array data at offset 16, lines of 64 bytes). */
    private static final int BASE = 6;

    /** How campaigns are kept; see the class comment. */
    public enum Storage
    {
        OBJECTS, INDEXED_SLAB, INLINE_SLAB
    }

    @Param({"OBJECTS", "INDEXED_SLAB", "INLINE_SLAB"})
    public Storage storage;

    @Param({"1000", "1000000"})
    public int campaigns;

    /**
     * A campaign as an object, laid out as {@code CampaignBook} is (Java 17, compressed references):
     * 216 bytes, two counters before the id, the bid run from the id (offset 32) to the first
     * reference (204, after three booleans).
     */
    @SuppressWarnings("unused")
    static final class Book
    {
        long c1, c2;
        final long id;
        long a1, a2, a3, a4, a5, a6, a7, a8, a9, a10, a11, a12, a13, a14, a15, a16, a17, a18, a19, a20;
        int flags;
        boolean b1, b2, b3;
        Object rule = this;
        Object policy;
        Object definition;

        Book(final long id)
        {
            this.id = id;
        }
    }

    private Book[] books;
    private int[] index;
    private long[] slab;
    private int mask;
    private final long[] drawn = new long[BATCH];
    private final int[] noted = new int[BATCH];
    private long random = 0x9E3779B97F4A7C15L;

    @Setup
    public void setUp()
    {
        final int capacity = Integer.highestOneBit(4 * campaigns - 1) << 1;
        mask = capacity - 1;
        switch (storage)
        {
            case OBJECTS ->
            {
                books = new Book[capacity];
                for (long id = 1; id <= campaigns; id++)
                {
                    int slot = hash(id);
                    while (books[slot] != null)
                    {
                        slot = (slot + 1) & mask;
                    }
                    books[slot] = new Book(id);
                }
            }
            case INDEXED_SLAB ->
            {
                index = new int[capacity];
                slab = new long[BASE + (campaigns + 1) * STRIDE];
                for (int id = 1; id <= campaigns; id++)
                {
                    int slot = hash(id);
                    while (index[slot] != 0)
                    {
                        slot = (slot + 1) & mask;
                    }
                    index[slot] = id;
                    slab[BASE + id * STRIDE] = id;
                }
            }
            case INLINE_SLAB ->
            {
                slab = new long[BASE + capacity * STRIDE];
                for (long id = 1; id <= campaigns; id++)
                {
                    int slot = hash(id);
                    while (slab[BASE + slot * STRIDE] != 0)
                    {
                        slot = (slot + 1) & mask;
                    }
                    slab[BASE + slot * STRIDE] = id;
                }
            }
            default -> throw new IllegalArgumentException(storage.name());
        }
    }

    /** Time per lookup: noted, touched, then read and written. */
    @Benchmark
    @OperationsPerInvocation(BATCH)
    public long batch()
    {
        for (int i = 0; i < BATCH; i++)
        {
            drawn[i] = nextCampaign();
            noted[i] = hash(drawn[i]);
        }
        return switch (storage)
        {
            case OBJECTS -> objects();
            case INDEXED_SLAB -> indexedSlab();
            case INLINE_SLAB -> inlineSlab();
        };
    }

    private long objects()
    {
        long read = 0;
        for (int i = 0; i < BATCH; i++)
        {
            read += books[noted[i]] == null ? 0 : 1;
        }
        for (int i = 0; i < BATCH; i++)
        {
            final Book book = books[noted[i]];
            read += book == null ? 0 : book.id + book.a8 + book.a16 + (book.rule == null ? 1 : 0);
        }
        for (int i = 0; i < BATCH; i++)
        {
            final long id = drawn[i];
            int slot = noted[i];
            Book book;
            while ((book = books[slot]).id != id)
            {
                slot = (slot + 1) & mask;
            }
            book.a9 += book.a1 + book.a20;
            book.a10++;
        }
        return read;
    }

    private long indexedSlab()
    {
        long read = 0;
        for (int i = 0; i < BATCH; i++)
        {
            read += index[noted[i]];
        }
        for (int i = 0; i < BATCH; i++)
        {
            final int at = BASE + index[noted[i]] * STRIDE;
            read += slab[at] + slab[at + 8] + slab[at + 16];
        }
        for (int i = 0; i < BATCH; i++)
        {
            final long id = drawn[i];
            int slot = noted[i];
            int at;
            while (slab[at = BASE + index[slot] * STRIDE] != id)
            {
                slot = (slot + 1) & mask;
            }
            slab[at + 9] += slab[at + 1] + slab[at + 20];
            slab[at + 10]++;
        }
        return read;
    }

    private long inlineSlab()
    {
        long read = 0;
        for (int i = 0; i < BATCH; i++)
        {
            final int at = BASE + noted[i] * STRIDE;
            read += slab[at] + slab[at + 8] + slab[at + 16];
        }
        for (int i = 0; i < BATCH; i++)
        {
            final long id = drawn[i];
            int slot = noted[i];
            int at;
            while (slab[at = BASE + slot * STRIDE] != id)
            {
                slot = (slot + 1) & mask;
            }
            slab[at + 9] += slab[at + 1] + slab[at + 20];
            slab[at + 10]++;
        }
        return read;
    }

    /**
     * Not the table's hash (Agrona's {@code Hashing.hash}): both scatter ids 1 to N alike, the three
     * storages share this one, and bench/BENCHMARKS.md's figures were taken with it.
     */
    private int hash(final long id)
    {
        final long h = id * 0x9E3779B97F4A7C15L;
        return (int)(h ^ (h >>> 32)) & mask;
    }

    private long nextCampaign()
    {
        random ^= random << 13;
        random ^= random >>> 7;
        random ^= random << 17;
        return 1 + (random >>> 1) % campaigns;
    }
}
