package io.pacer.model;

import io.pacer.units.DurationMillis;
import io.pacer.units.EpochMillis;
import io.pacer.units.Units;

import java.io.DataInput;
import java.io.DataOutput;
import java.io.IOException;
import java.util.Arrays;

/**
 * The notices one shard has settled within the dedupe window, so that a resent notice is booked
 * once: found by (request id, campaign id), forgotten in settle order once the window has passed.
 *
 * <p>Memory is what a window of notices at full rate needs, and no more: the notices sit in a
 * ring of two {@code long}s each (request id, campaign id), in settle order, beside a ring of
 * outcome bits; an open-addressing {@code int} index, at most half full, finds them by key. An
 * index entry holds the notice's ring slot and, in five bits, how far it lies from its home
 * position (0 to 4, or "5 or more") with one of five tags from its key's hash: a probe reads another
 * key only when that key shares its home and its tag, or lies far from home, and a removal shifting
 * entries back knows their homes without reading their keys; one time mark per distinct settle millisecond says
 * where each millisecond's notices begin. That is 24 bytes and a bit a notice (16 in the ring, 8
 * of index), plus 16 bytes a millisecond. No object is made per notice, and the structures only
 * grow (doubling, or to a replay's {@link #expect hint}) when the window holds more notices than
 * ever before. The ring and the index are kept in chunks
 * of 1 Mi entries, so that no allocation is large (a single array of hundreds of MB is zeroed
 * without a safepoint poll). A table grown to an {@link #expect expected} size, which a power of
 * two rounds up by as much as half again, makes the ring's chunks past that size only as the ring
 * reaches them: memory first touched is dear (on the 2-core host, ~5 ms a MB of system time in a
 * slow run), and a replay of 5M notices grown to 8M never wrote 48 MB of its ring. Withdrawing the
 * hint makes them: made one by one later, mid-traffic, each 8 MB chunk a humongous allocation of
 * its own, they tripled the open-loop p99.9 of a live server.
 *
 * <p>A window of a minute at a million notices a second is far larger than any cache, so every
 * lookup is a memory access of its own: the index is probed by home and tag before any key is
 * read, and expiry finds a notice's index entry by its ring slot and closes the gap by the entries'
 * distances from home (comparing and reading no key but those of entries 5 or more from home);
 * growth moves notices over in ring order and reads nothing of the old index.
 *
 * <p>Growth never stops the shard to rehash: the doubled ring and index are allocated, and the
 * notices already held move over sixteen at a time with every eight settled after, oldest first,
 * while lookups consult both (a stop-the-world rehash of a few million notices took seconds on a
 * shared 2-core host, and every answer waited for it). Nothing is removed from the old index: an
 * entry there whose notice has moved over or expired is recognised by its sequence and skipped.
 * Agrona's maps key on one {@code long} and box nothing, but a key of
 * two {@code long}s would need a chain per request id and twice the memory, which at a million
 * notices a second over a minute's window is gigabytes.
 *
 * <p>A shard's window holds at most 2^27 notices (3.2 GB); more throws from {@link #settle}.
 *
 * <p>Time only moves forward (shard time), so the ring is an exact expiry queue. A replay defers
 * the index's side of expiry to sweeps in index order (see {@link #expect}).
 *
 * <p>Over 300 lines because an open-addressed index, its incremental growth and its snapshot form have
 * to agree with each other byte for byte; splitting them would spread one invariant over several
 * files.
 */
public final class SettledNotices
{
    /** No notice for this key is remembered. */
    public static final int NONE = 0;
    /** A win was booked for this key. */
    public static final int WON = 1;
    /** A loss was settled for this key (and no win since). */
    public static final int LOST = 2;

    /** Bytes the ring and the index take for each notice they have room for (the outcome bits aside). */
    public static final long BYTES_PER_NOTICE = 24;

    private static final int INITIAL_CAPACITY = 1 << 10;
    private static final int SLOT_BITS = 27;
    private static final int MAX_CAPACITY = 1 << SLOT_BITS;
    /**
     * An index entry: the ring slot in the low 27 bits, and in the five above them a code of 1-30 (0 is
     * empty), {@code 1 + distance * TAGS + tag}, where distance is how far the entry lies from its
     * home position, up to {@link #FAR} (which stands for that or more), and tag is 0 to 4 from its key's
     * hash.
     */
    private static final int SLOT_MASK = MAX_CAPACITY - 1;
    private static final int CODE_MASK = ~SLOT_MASK;
    private static final int TAGS = 5;
    /** The distance from home that an index entry's code saturates at: its home is then found from its key. */
    private static final int FAR = 5;
    /** One step further from home, in an entry's code (while below {@link #FAR}). */
    private static final int STEP = TAGS << SLOT_BITS;
    private static final int CHUNK_BITS = 20;
    private static final int CHUNK = 1 << CHUNK_BITS;
    private static final int CHUNK_MASK = CHUNK - 1;
    /** While growing, this many notices move over with every half as many settled. */
    private static final int MIGRATE_BATCH = 16;

    private final @DurationMillis long windowMillis;
    /** The ring: notice {@code slot}'s request id at {@code 2 * slot}, its campaign id next to it (one cache line). */
    private long[][] keys;
    /** The ring's outcomes: bit {@code slot} set if notice {@code slot} was won. */
    private long[][] won;
    private int mask;
    /** The oldest notice remembered: those before it have passed the window. */
    private long head;
    private long tail;
    /**
     * The oldest notice whose index entry may still be there (index entries exist for the notices
     * from here to {@link #tail} only): {@link #head} itself, unless a replay's size hint has
     * {@link #deferring deferred} the removals, which then lag behind it.
     */
    private long indexedFrom;
    /**
     * While a replay's size hint is given: an expiry only moves {@link #head}, leaving the passed
     * notices' index entries (which no lookup matches, as their ring slots lie outside [head, tail))
     * to be removed together when the ring is about to reuse the first of their slots
     * ({@link #forgetPassed}: by a sweep in index order, or one by one if few).
     */
    private boolean deferring;
    /** The index positions a {@link #sweep} has emptied in the run of entries it is in, ascending (unwrapped). */
    private int[] gaps = new int[64];

    private int[][] index;

    /**
     * While growing: the structures before the growth, which held the sequences [oldStart, oldEnd)
     * (as many as their ring has slots) and still hold [migrated, oldEnd).
     */
    private long[][] oldKeys;
    private long[][] oldWon;
    private int oldMask;
    private int[][] oldIndex;
    private long oldStart;
    private long migrated;
    private long oldEnd;

    /**
     * The last {@link #outcome} lookup: its key and hash, the index position it found, and {@link #changes}
     * then, so that the {@link #settle} which follows it for the same notice does not probe again.
     */
    private long lastRequestId;
    private long lastCampaignId;
    private long lastHash;
    private int lastAt = -1;
    private long lastChanges;
    /**
     * Counts every insert into or removal from {@link #index}, every swap of it, and every advance of
     * {@link #head}: any of them can make a remembered position wrong (an insert fills the empty slot
     * a lookup of another key may have remembered; with expiry deferred, a remembered entry may then
     * be a passed notice's).
     */
    private long changes;

    /** The hashes of the block of notices {@link #migrate} is moving or {@link #forgetUpTo} forgetting. */
    private final long[] blockHashes = new long[MIGRATE_BATCH];
    /**
     * What {@link #migrate} and {@link #forgetUpTo} read ahead: written, never read; the store keeps
     * the reads from being optimised away.
     */
    @SuppressWarnings("UnusedVariable")
    private int touched;

    /** Index positions {@link #note noted} for {@link #touchNoted}, and the old index's while growing (-1 if not). */
    private final int[] noted = new int[PacingShard.NOTED];
    private final int[] notedOld = new int[PacingShard.NOTED];
    private int notedCount;

    /** How many notices the window is expected to hold at most ({@link #expect}): a growth goes straight there. */
    private int expected;

    private long[] markMillis;
    private long[] markFirst;
    private int markMask;
    private long markHead;
    private long markTail;

    /** @param windowMillis how long a settled notice is remembered; 0 remembers nothing */
    public SettledNotices(final @DurationMillis long windowMillis)
    {
        if (windowMillis < 0)
        {
            throw new IllegalArgumentException("windowMillis must be >= 0, was " + windowMillis);
        }
        this.windowMillis = windowMillis;
        allocate(windowMillis == 0 ? 1 : INITIAL_CAPACITY);
        markMillis = new long[windowMillis == 0 ? 1 : INITIAL_CAPACITY];
        markFirst = new long[markMillis.length];
        markMask = markMillis.length - 1;
    }

    /** {@link #WON}, {@link #LOST} or {@link #NONE} for this request and campaign. */
    public int outcome(final long requestId, final long campaignId)
    {
        if (head == tail)
        {
            return NONE;
        }
        final long hash = hash(requestId, campaignId);
        final int at = find(hash, requestId, campaignId);
        lastRequestId = requestId;
        lastCampaignId = campaignId;
        lastHash = hash;
        lastAt = at;
        lastChanges = changes;
        final int found = get(index, at);
        if (found != 0)
        {
            return isSet(won, found & SLOT_MASK) ? WON : LOST;
        }
        if (oldIndex != null)
        {
            final int old = findOld(hash, requestId, campaignId);
            if (old >= 0)
            {
                return isSet(oldWon, get(oldIndex, old) & SLOT_MASK) ? WON : LOST;
            }
        }
        return NONE;
    }

    /**
     * Notes the index position a lookup of this notice will start at, for {@link #touchNoted}, and
     * reads nothing of the index: a caller about to apply a run of notices notes them all, then
     * touches them, so that their cache misses overlap (see {@link PacingShard#note}). Past
     * {@link PacingShard#NOTED} notes, a notice is not noted (the touch is a hint).
     */
    void note(final long requestId, final long campaignId)
    {
        if (notedCount < PacingShard.NOTED && head != tail)
        {
            final long hash = hash(requestId, campaignId);
            noted[notedCount] = (int)hash & (2 * mask + 1);
            notedOld[notedCount++] = oldIndex == null ? -1 : (int)hash & (2 * oldMask + 1);
        }
    }

    /**
     * Reads the index positions {@link #note noted} (and the old index's, while growing), and forgets
     * the notes: a loop of a load each, so short that the processor has every one of their cache misses
     * in flight at once (reading each as it was hashed, the reorder buffer held three or four).
     *
     * @return what was read (means nothing: keep it, so the reads are not optimised away)
     */
    int touchNoted()
    {
        final int[][] index = this.index;
        int read = 0;
        for (int i = 0; i < notedCount; i++)
        {
            read += get(index, noted[i]);
        }
        if (oldIndex != null)
        {
            for (int i = 0; i < notedCount; i++)
            {
                read += notedOld[i] < 0 ? 0 : get(oldIndex, notedOld[i]);
            }
        }
        notedCount = 0;
        return read;
    }

    /**
     * Remembers that this request's notice was settled at {@code nowMillis} (the latest time given
     * so far); a loss settled before becomes a win, keeping its first settle time.
     */
    public void settle(final long requestId, final long campaignId, final boolean isWin,
        final @EpochMillis long nowMillis)
    {
        if (windowMillis == 0)
        {
            return;
        }
        final boolean lookedUp = lastAt >= 0 && lastChanges == changes && lastRequestId == requestId &&
            lastCampaignId == campaignId;
        final long hash = lookedUp ? lastHash : hash(requestId, campaignId);
        int at = lookedUp ? lastAt : find(hash, requestId, campaignId);
        if (get(index, at) != 0)
        {
            if (isWin)
            {
                setBit(won, get(index, at) & SLOT_MASK, true);
            }
            return;
        }
        if (oldIndex != null)
        {
            final int old = findOld(hash, requestId, campaignId);
            if (old >= 0)
            {
                if (isWin)
                {
                    setBit(oldWon, get(oldIndex, old) & SLOT_MASK, true);
                }
                return;
            }
        }
        if (tail - indexedFrom == mask + 1L)
        {
            if (tail - head == mask + 1L)
            {
                grow();
            }
            else
            {
                forgetPassed();
            }
            at = find(hash, requestId, campaignId);
        }
        final int slot = (int)(tail & mask);
        makeRingChunk(slot);
        set(keys, 2 * slot, requestId);
        set(keys, 2 * slot + 1, campaignId);
        setBit(won, slot, isWin);
        set(index, at, slot | code(at - (int)hash & 2 * mask + 1, tag(hash)));
        changes++;
        if (markHead == markTail || markMillis[(int)((markTail - 1) & markMask)] != nowMillis)
        {
            if (markTail - markHead == markMillis.length)
            {
                growMarks();
            }
            markMillis[(int)(markTail & markMask)] = nowMillis;
            markFirst[(int)(markTail & markMask)] = tail;
            markTail++;
        }
        tail++;
        if (oldIndex != null && (tail & (MIGRATE_BATCH / 2 - 1)) == 0)
        {
            migrate(MIGRATE_BATCH);
        }
    }

    /** Forgets every notice settled at or before {@code nowMillis - window}. */
    public void expire(final @EpochMillis long nowMillis)
    {
        while (markHead != markTail && markMillis[(int)(markHead & markMask)] + windowMillis <= nowMillis)
        {
            final long end = markHead + 1 == markTail ? tail : markFirst[(int)((markHead + 1) & markMask)];
            if (deferring && oldIndex == null)
            {
                // the entries stay: a position a lookup remembered may now hold a passed notice
                changes++;
            }
            else
            {
                forgetUpTo(end);
            }
            head = end;
            markHead++;
        }
        if (oldIndex != null && migrated < head)
        {
            migrated = head;
            if (migrated >= oldEnd)
            {
                dropOld();
            }
        }
    }

    /**
     * Removes the index entries of the notices from {@link #indexedFrom} to sequence {@code end}, oldest
     * first, in blocks of {@link #MIGRATE_BATCH}: a block's index home positions are read first, all
     * of them, so that their cache misses overlap (see {@link #migrate}); then each entry is found by
     * its ring slot and removed, which reads no key but those of the entries behind it lying
     * {@link #FAR} or more from home. An old notice stays in the old index, which skips it once
     * migrated has passed it.
     */
    private void forgetUpTo(final long end)
    {
        final int indexMask = 2 * mask + 1;
        while (indexedFrom < end)
        {
            final int block = (int)Math.min(MIGRATE_BATCH, end - indexedFrom);
            touched += hashBlock(keys, mask, indexedFrom, block, indexMask, true);
            for (int i = 0; i < block; i++, indexedFrom++)
            {
                if (!isOld(indexedFrom))
                {
                    remove(index, indexMask, keys, findSlot(index, indexMask, blockHashes[i], (int)(indexedFrom & mask)));
                    changes++;
                }
            }
        }
    }

    /**
     * Removes the index entries that deferred expiries left, before the ring reuses their slots or the
     * deferring ends: one by one if they are few (an eighth of the ring or less), else by a
     * {@link #sweep} of the whole index, which costs about what removing an eighth one by one does.
     */
    private void forgetPassed()
    {
        if (head - indexedFrom > (mask + 1L) >>> 3)
        {
            sweep();
        }
        else
        {
            forgetUpTo(head);
        }
    }

    /**
     * Removes every index entry of a passed notice in one pass in index order, so that its reads are
     * sequential where removing each by its key's hash would be a cache miss of its own. Each run of
     * entries between empty positions is closed up as removals one at a time would: an entry moves
     * back to the first gap at or after its home (only ever to a gap, and never past one, so that every
     * position between an entry's home and its own stays filled). The pass starts after an empty
     * position (the index is at most half full), so that no run wraps.
     */
    private void sweep()
    {
        final int indexMask = 2 * mask + 1;
        int start = 0;
        while (get(index, start) != 0)
        {
            start++;
        }
        int gapCount = 0;
        for (int u = start + 1; u <= start + indexMask; u++)
        {
            final int at = u & indexMask;
            final int entry = get(index, at);
            if (entry == 0)
            {
                gapCount = 0;
                continue;
            }
            final int slot = entry & SLOT_MASK;
            if (!isLive(slot, mask, (int)head, tail - head))
            {
                set(index, at, 0);
                gapCount = addGap(gapCount, u);
                continue;
            }
            if (gapCount == 0)
            {
                continue;
            }
            final int value = (entry >>> SLOT_BITS) - 1;
            final int coded = value / TAGS;
            final int home = u - (coded < FAR ? coded : at - (int)hash(keys, slot) & indexMask);
            // the first gap at or after home, searched from the last: no more steps than the entry lies from home
            int g = gapCount;
            while (g > 0 && gaps[g - 1] >= home)
            {
                g--;
            }
            if (g < gapCount)
            {
                final int to = gaps[g];
                set(index, to & indexMask, slot | code(to - home, value - coded * TAGS));
                set(index, at, 0);
                System.arraycopy(gaps, g + 1, gaps, g, gapCount - g - 1);
                gaps[gapCount - 1] = u;
            }
        }
        indexedFrom = head;
        changes++;
    }

    /** Appends an unwrapped index position to {@link #gaps}, growing it if full; returns the new count. */
    private int addGap(final int count, final int position)
    {
        if (count == gaps.length)
        {
            gaps = Arrays.copyOf(gaps, 2 * count);
        }
        gaps[count] = position;
        return count + 1;
    }

    /**
     * A capacity hint, replacing any before: the window will hold about {@code notices} at most, so
     * the next time the structures must grow they grow straight to that size (a power of two, at most
     * 2^27) instead of doubling their way there, moving what they hold once. Nothing grows before it
     * is full, and no lookup, outcome or snapshot changes (only {@link #footprintBytes} sees the
     * capacity); a hint too small, or 0, leaves the doubling to go on from there.
     *
     * <p>While a hint is given (a replay's, where no answer waits), expiry is deferred: a notice
     * passing the window only leaves the ring, and its index entry, which no lookup matches from then
     * on, is removed with the others when the ring comes round to their slots: by one sequential
     * {@link #sweep} of the index, or one by one if they are an eighth of the ring or fewer. Removing
     * each by its key's hash as it passed was a cache miss a notice, an eighth of a replay whose
     * window is shorter than its journal. Withdrawing the hint (0) removes them all and expires at
     * once again, as a live shard must: a sweep of a window's index would stall its answers for
     * milliseconds.
     */
    public void expect(final int notices)
    {
        expected = Math.max(0, Math.min(notices, MAX_CAPACITY));
        if (expected == 0)
        {
            makeAll(keys);
            if (indexedFrom < head)
            {
                forgetPassed();
            }
        }
        deferring = expected > 0;
    }

    /** Notices remembered now. */
    public long size()
    {
        return tail - head;
    }

    /**
     * Entries in the index now: {@link #size}, unless a replay's size hint has deferred removals (more)
     * or the structures are growing (fewer: the notices not yet moved over are in the old index).
     */
    int indexEntries()
    {
        int entries = 0;
        for (final int[] chunk : index)
        {
            for (final int entry : chunk)
            {
                entries += entry == 0 ? 0 : 1;
            }
        }
        return entries;
    }

    /** Bytes held by the structures (they keep their peak size; the ring only what it has reached). */
    public long footprintBytes()
    {
        final long old = oldIndex == null ? 0 : bytes(oldKeys) + bytes(oldWon) + bytes(oldIndex);
        return bytes(keys) + bytes(won) + bytes(index) + 8L * (markMillis.length + markFirst.length) + old;
    }

    private static long bytes(final long[][] chunks)
    {
        long bytes = 0;
        for (final long[] chunk : chunks)
        {
            bytes += chunk == null ? 0 : 8L * chunk.length;
        }
        return bytes;
    }

    private static long bytes(final int[][] chunks)
    {
        long bytes = 0;
        for (final int[] chunk : chunks)
        {
            bytes += 4L * chunk.length;
        }
        return bytes;
    }

    /** Writes the remembered notices in settle order, each with its outcome and settle time. */
    void write(final DataOutput out) throws IOException
    {
        out.writeLong(size());
        long mark = markHead;
        for (long seq = head; seq < tail; seq++)
        {
            while (mark + 1 != markTail && markFirst[(int)((mark + 1) & markMask)] <= seq)
            {
                mark++;
            }
            final boolean old = isOld(seq);
            final long[][] ring = old ? oldKeys : keys;
            final int slot = (int)(seq & (old ? oldMask : mask));
            out.writeLong(get(ring, 2 * slot));
            out.writeLong(get(ring, 2 * slot + 1));
            out.writeBoolean(isSet(old ? oldWon : won, slot));
            out.writeLong(markMillis[(int)(mark & markMask)]);
        }
    }

    /** Remembers again what {@link #write} wrote, into this empty set. */
    void read(final DataInput in) throws IOException
    {
        final long count = in.readLong();
        for (long i = 0; i < count; i++)
        {
            final long requestId = in.readLong();
            final long campaignId = in.readLong();
            final boolean won = in.readBoolean();
            settle(requestId, campaignId, won, Units.epochMillis(in.readLong()));
        }
    }

    /** The index position holding this key (whose {@link #hash} is given), or the empty position where it would go. */
    private int find(final long hash, final long requestId, final long campaignId)
    {
        return find(index, 2 * mask + 1, keys, hash, requestId, campaignId, mask, (int)head, tail - head);
    }

    /** The old index's position holding this key, or -1 if it holds none or only one that has moved on. */
    private int findOld(final long hash, final long requestId, final long campaignId)
    {
        final int at = find(oldIndex, 2 * oldMask + 1, oldKeys, hash, requestId, campaignId, oldMask, 0, Long.MAX_VALUE);
        final int entry = get(oldIndex, at);
        if (entry == 0)
        {
            return -1;
        }
        final long sequence = oldStart + (((entry & SLOT_MASK) - oldStart) & oldMask);
        return sequence < migrated ? -1 : at;
    }

    private boolean isOld(final long sequence)
    {
        return oldIndex != null && sequence >= migrated && sequence < oldEnd;
    }

    /**
     * The index position holding this key, or the empty position where it would go. An entry whose ring
     * slot lies {@code live} or more past {@code liveFrom} (under {@code ringMask}) is one whose notice
     * has passed, and never matches.
     */
    private static int find(final int[][] index, final int mask, final long[][] keys, final long hash,
        final long requestId, final long campaignId, final int ringMask, final int liveFrom, final long live)
    {
        int at = (int)hash & mask;
        // the code this key's entry would have here: it moves a distance further with every step, up to FAR
        int code = code(0, tag(hash));
        final int far = code(FAR, tag(hash));
        int entry;
        while ((entry = get(index, at)) != 0)
        {
            if ((entry & CODE_MASK) == code)
            {
                final int slot = entry & SLOT_MASK;
                // a passed notice's entry is known by its slot, before its key is read (a cache miss)
                if (isLive(slot, ringMask, liveFrom, live) && get(keys, 2 * slot) == requestId &&
                    get(keys, 2 * slot + 1) == campaignId)
                {
                    return at;
                }
            }
            at = (at + 1) & mask;
            code = code == far ? far : code + STEP;
        }
        return at;
    }

    /**
     * Whether ring {@code slot} holds a notice still remembered: it lies less than {@code live} past
     * {@code liveFrom}, the oldest's slot, under {@code ringMask}. An index entry for any other slot
     * is a passed notice's, left by a deferred expiry.
     */
    private static boolean isLive(final int slot, final int ringMask, final int liveFrom, final long live)
    {
        return (slot - liveFrom & ringMask) < live;
    }

    /**
     * The index position of the entry for ring {@code slot}, whose key hashes to {@code hash}: no key
     * is read. The entry lies before the first empty position from its home (inserts take the first
     * one, removals shift entries back), so reaching one is a broken invariant, not a loop.
     */
    private static int findSlot(final int[][] index, final int mask, final long hash, final int slot)
    {
        int at = (int)hash & mask;
        int entry;
        while ((entry = get(index, at)) != 0)
        {
            if ((entry & SLOT_MASK) == slot)
            {
                return at;
            }
            at = (at + 1) & mask;
        }
        throw new IllegalStateException("no index entry for ring slot " + slot);
    }

    /**
     * Empties an index position, shifting back the entries that probed past it. An entry's distance
     * from home is in its code; only an entry {@link #FAR} or more from home has its key read.
     */
    private static void remove(
        final int[][] index, final int mask, final long[][] keys, final int position)
    {
        int gap = position;
        int at = (gap + 1) & mask;
        int entry;
        while ((entry = get(index, at)) != 0)
        {
            final int value = (entry >>> SLOT_BITS) - 1;
            final int coded = value / TAGS;
            final int distance = coded < FAR ? coded : at - (int)hash(keys, entry & SLOT_MASK) & mask;
            final int shift = (at - gap) & mask;
            // the entry may fill the gap if its home is not cyclically in (gap, at]
            if (distance >= shift)
            {
                set(index, gap, (entry & SLOT_MASK) | code(distance - shift, value - coded * TAGS));
                gap = at;
            }
            at = (at + 1) & mask;
        }
        set(index, gap, 0);
    }

    /** The hash of a key: its home is the low bits, its tag from the high ones (package-private for tests that place keys). */
    static long hash(final long requestId, final long campaignId)
    {
        long h = requestId * 0x9E3779B97F4A7C15L + campaignId;
        h ^= h >>> 32;
        h *= 0xC2B2AE3D27D4EB4FL;
        h ^= h >>> 29;
        return h;
    }

    /** The hash of the key in ring slot {@code slot}. */
    private static long hash(final long[][] keys, final int slot)
    {
        return hash(get(keys, 2 * slot), get(keys, 2 * slot + 1));
    }

    /** 0 to 4 from the hash's top bits (the position takes the low ones). */
    private static int tag(final long hash)
    {
        return (int)(((hash >>> 32) * TAGS) >>> 32);
    }

    /** An index entry's code for a distance from home (at most {@link #FAR} counts) and a tag, in place. */
    private static int code(final int distance, final int tag)
    {
        return (1 + Math.min(distance, FAR) * TAGS + tag) << SLOT_BITS;
    }

    private void allocate(final int capacity)
    {
        keys = ringChunks(2 * capacity, expected > 0 ? 2 * Math.min(capacity, expected) : 2 * capacity);
        won = longChunks(Math.max(1, capacity >>> 6));
        mask = capacity - 1;
        index = intChunks(capacity * 2);
    }

    /**
     * {@code length} longs in chunks of at most {@link #CHUNK}: a doubling allocates many small
     * arrays instead of one of hundreds of MB, whose zeroing the JVM cannot interrupt for a
     * safepoint (that held every thread for 0.1-0.9 s in the open-loop benchmark).
     */
    private static long[][] longChunks(final int length)
    {
        return ringChunks(length, length);
    }

    /**
     * As {@link #longChunks}, with only the chunks that hold the first {@code made} longs made:
     * {@link #makeRingChunk} makes each of the others the first time the ring writes there
     * (the ring is written in sequence order and read only where it was written), or
     * {@link #makeAll} does.
     */
    private static long[][] ringChunks(final int length, final int made)
    {
        final long[][] chunks = new long[Math.max(1, length >>> CHUNK_BITS)][];
        chunks[0] = new long[Math.min(length, CHUNK)];
        for (int i = 1; i < chunks.length && (long)i * CHUNK < made; i++)
        {
            chunks[i] = new long[CHUNK];
        }
        return chunks;
    }

    private static void makeAll(final long[][] chunks)
    {
        for (int i = 1; i < chunks.length; i++)
        {
            if (chunks[i] == null)
            {
                chunks[i] = new long[CHUNK];
            }
        }
    }

    private static int[][] intChunks(final int length)
    {
        final int[][] chunks = new int[Math.max(1, length >>> CHUNK_BITS)][];
        for (int i = 0; i < chunks.length; i++)
        {
            chunks[i] = new int[Math.min(length, CHUNK)];
        }
        return chunks;
    }

    private static long get(final long[][] chunks, final int i)
    {
        return chunks[i >>> CHUNK_BITS][i & CHUNK_MASK];
    }

    private static void set(final long[][] chunks, final int i, final long value)
    {
        chunks[i >>> CHUNK_BITS][i & CHUNK_MASK] = value;
    }

    /**
     * Makes the ring chunk that holds notice {@code slot} if a size hint left it unmade (both its
     * longs are in the same chunk: a chunk's length is even).
     */
    private void makeRingChunk(final int slot)
    {
        final int chunk = (2 * slot) >>> CHUNK_BITS;
        if (keys[chunk] == null)
        {
            // chunks past the first are whole: a length over CHUNK is a multiple of it
            keys[chunk] = new long[CHUNK];
        }
    }

    private static int get(final int[][] chunks, final int i)
    {
        return chunks[i >>> CHUNK_BITS][i & CHUNK_MASK];
    }

    private static void set(final int[][] chunks, final int i, final int value)
    {
        chunks[i >>> CHUNK_BITS][i & CHUNK_MASK] = value;
    }

    private static boolean isSet(final long[][] bits, final int i)
    {
        return (get(bits, i >>> 6) & (1L << i)) != 0;
    }

    private static void setBit(final long[][] bits, final int i, final boolean value)
    {
        final long word = get(bits, i >>> 6);
        set(bits, i >>> 6, value ? word | (1L << i) : word & ~(1L << i));
    }

    /**
     * Doubles the ring and the index, or grows them to the {@link #expect expected} size if that is
     * larger. The notices held stay where they are and move over by {@link #migrate}, oldest first;
     * a growth that finds the last one still moving finishes it.
     */
    private void grow()
    {
        if (mask + 1 == MAX_CAPACITY)
        {
            throw new IllegalStateException("more than " + MAX_CAPACITY + " notices in one shard's dedupe window");
        }
        if (oldIndex != null)
        {
            migrate(Integer.MAX_VALUE);
        }
        oldKeys = keys;
        oldWon = won;
        oldMask = mask;
        oldIndex = index;
        oldStart = head;
        migrated = head;
        oldEnd = tail;
        final int doubled = (mask + 1) * 2;
        allocate(expected > doubled ? Math.min(MAX_CAPACITY, Integer.highestOneBit(expected - 1) << 1) : doubled);
        changes++;
        if (migrated == oldEnd)
        {
            dropOld();
        }
    }

    /**
     * Moves up to {@code count} of the oldest notices not yet moved into the grown structures, in
     * blocks of {@link #MIGRATE_BATCH}: each is read from the old ring in order, with its outcome,
     * and put in the first empty position of the new index (it cannot be there already); the old
     * index is not touched. A block's home positions are read first, all of them: each is a cache
     * miss of its own, and read together, before any is written, they overlap instead of each move
     * waiting on its own.
     */
    private void migrate(final int count)
    {
        final int newIndexMask = 2 * mask + 1;
        for (long left = Math.min(count, oldEnd - migrated); left > 0; left -= MIGRATE_BATCH)
        {
            final int block = (int)Math.min(MIGRATE_BATCH, left);
            touched += hashBlock(oldKeys, oldMask, migrated, block, newIndexMask, false);
            for (int i = 0; i < block; i++)
            {
                moveOldest(blockHashes[i], newIndexMask);
            }
        }
        if (migrated >= oldEnd)
        {
            dropOld();
        }
    }

    /**
     * Hashes into {@link #blockHashes} the keys of the {@code block} notices of {@code ring} from
     * sequence {@code from} on, and reads each one's home position in {@link #index} (whose mask is
     * {@code indexMask}), all before any is used, so that their cache misses overlap.
     *
     * @param skipUnmoved skip a notice not yet moved out of the old structures (its slot in the new
     *                    ring holds nothing yet)
     * @return what was read (means nothing: keep it, so the reads are not optimised away)
     */
    private int hashBlock(final long[][] ring, final int ringMask, final long from, final int block, final int indexMask,
        final boolean skipUnmoved)
    {
        int read = 0;
        for (int i = 0; i < block; i++)
        {
            if (skipUnmoved && isOld(from + i))
            {
                continue;
            }
            final int slot = (int)((from + i) & ringMask);
            blockHashes[i] = hash(get(ring, 2 * slot), get(ring, 2 * slot + 1));
            read += get(index, (int)blockHashes[i] & indexMask);
        }
        return read;
    }

    /** Moves the oldest notice not yet moved, whose key hashes to {@code hash}, into the new structures. */
    private void moveOldest(final long hash, final int newIndexMask)
    {
        final int oldSlot = (int)(migrated & oldMask);
        final int slot = (int)(migrated & mask);
        makeRingChunk(slot);
        set(keys, 2 * slot, get(oldKeys, 2 * oldSlot));
        set(keys, 2 * slot + 1, get(oldKeys, 2 * oldSlot + 1));
        setBit(won, slot, isSet(oldWon, oldSlot));
        final int home = (int)hash & newIndexMask;
        int at = home;
        while (get(index, at) != 0)
        {
            at = (at + 1) & newIndexMask;
        }
        set(index, at, slot | code(at - home & newIndexMask, tag(hash)));
        changes++;
        migrated++;
    }

    private void dropOld()
    {
        oldKeys = null;
        oldWon = null;
        oldIndex = null;
    }

    private void growMarks()
    {
        final long[] oldMillis = markMillis;
        final long[] oldFirst = markFirst;
        final int oldMask = markMask;
        markMillis = new long[oldMillis.length * 2];
        markFirst = new long[markMillis.length];
        markMask = markMillis.length - 1;
        for (long m = markHead; m < markTail; m++)
        {
            markMillis[(int)(m & markMask)] = oldMillis[(int)(m & oldMask)];
            markFirst[(int)(m & markMask)] = oldFirst[(int)(m & oldMask)];
        }
    }
}
