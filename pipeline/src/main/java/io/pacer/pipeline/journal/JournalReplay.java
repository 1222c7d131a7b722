package io.pacer.pipeline.journal;

import io.pacer.model.CampaignBook;
import io.pacer.model.CampaignDefinition;
import io.pacer.model.CampaignSnapshot;
import io.pacer.model.PacingPolicy;
import io.pacer.model.PacingShard;
import io.pacer.model.SettledNotices;
import io.pacer.model.ShardRouter;
import io.pacer.pipeline.EventType;
import io.pacer.pipeline.PacingStep;
import io.pacer.units.EpochMillis;
import io.pacer.units.Units;
import io.pacer.wire.Reason;

import java.util.ArrayList;
import java.util.List;

/**
 * Feeds journal records into pacing shards through the same {@link PacingShard} calls the
 * pipeline's handlers make, and checks each re-made decision against the recorded one. Used to
 * recover state at start-up and by {@code pacer replay} to audit.
 */
public final class JournalReplay implements JournalReader.RecordHandler
{
    /**
     * Told about every record after it has been applied (audits); and, if it wants, before: the
     * journal's header and census ({@link #begin}), and each block's bids and notices to touch
     * ({@link #touch}).
     */
    @FunctionalInterface
    public interface Observer
    {
        /**
         * @param replayed the re-made decision of a bid, null for anything else
         * @param shard    the shard that applied the record, null for one applied by every shard
         */
        void applied(JournalRecord record, Reason replayed, PacingShard shard);

        /**
         * Told once, before the first record, how the journal's first segment says to replay it, and
         * the notice census the replay's shards are sized by (null if none was counted): an observer
         * replaying into shards of its own may size them the same way ({@link JournalReplay#expectNotices}).
         */
        default void begin(final JournalHeader header, final NoticeCensus census)
        {
        }

        /**
         * Reads, and changes nothing of, what {@link #applied} will read for the {@code count} (at most
         * {@link JournalReplay#BLOCK}) bids and notices of {@code block} (no other record is touched),
         * which are applied right after: told of a block before any of it is applied, so that their
         * cache misses overlap (as the shards' own are, {@link JournalReplay#touchBlock}).
         *
         * @return anything read (the caller keeps it, so the reads are not optimised away)
         */
        default long touch(final JournalRecord[] block, final int count)
        {
            return 0;
        }

        Observer NONE = (record, replayed, shard) -> {};
    }

    /**
     * Bids and notices are applied in blocks of up to this many: the block's state is touched
     * first, every record of it ({@link PacingShard#note} then {@link PacingShard#touchNoted}), so
     * that their cache misses overlap instead of each record waiting on its own. 32 since the
     * notices' positions are noted before they are read: 16 was ~4% slower on the 2 s-window
     * journal and level on the 60 s one (bench/BENCHMARKS.md). No more than a shard notes between
     * touches ({@link PacingShard#NOTED}).
     */
    public static final int BLOCK = 32;
    /**
     * The reservations a replay's shards pool at first; they make more as the journal asks. Their
     * index is sized apart, small at first in any shard (see ReservationBook's INITIAL_INDEX_SLOTS).
     */
    private static final int REPLAY_POOLED_RESERVATIONS = 1 << 10;

    private final List<PacingShard> shards;
    private final ShardRouter router;
    private final Observer observer;
    /** The bids and notices read and not yet applied, in order. */
    private final JournalRecord[] pending = new JournalRecord[BLOCK];
    private int pendingCount;
    /** What the touches read: written, never read; the store keeps the reads from being optimised away. */
    @SuppressWarnings("UnusedVariable")
    private long touched;
    private long mismatches;
    private long firstMismatchSequence = -1;
    private long events;
    private CampaignDefinition definition;
    /** Where the notice census comes from, or null (see {@link #sizedBy}). */
    private JournalReader sizing;
    /** Whether the shards have been told the census (at the first bid or notice). */
    private boolean sized;

    public JournalReplay(final List<PacingShard> shards, final Observer observer)
    {
        this.shards = shards;
        this.router = new ShardRouter(shards.size());
        this.observer = observer;
        for (int i = 0; i < BLOCK; i++)
        {
            pending[i] = new JournalRecord();
        }
    }

    /**
     * Replays a whole journal into fresh shards built as its first segment's header says (the
     * audit's and the tests' way in).
     *
     * @return the replay, or null if the journal holds no record
     * @throws JournalCorruptException on a bad record before the tail
     */
    public static JournalReplay ofJournal(final JournalReader reader, final Observer observer)
    {
        return ofJournal(reader, observer, Units.MAX_INSTANT);
    }

    /**
     * As {@link #ofJournal(JournalReader, Observer)}, up to an instant: everything before the first
     * record stamped after {@code untilMillis} is applied, nothing from it on (a record from one
     * connection can carry a slightly earlier stamp than one from another journaled before it, but a
     * shard's time never goes back, so nothing later could be applied at the instant asked for).
     * Then every shard's time moves to {@code untilMillis}, expiring what was due by then, as an
     * admin read at that instant does. The later segments are still read and checked.
     */
    public static JournalReplay ofJournal(final JournalReader reader, final Observer observer, final @EpochMillis long untilMillis)
    {
        final JournalReplay[] replay = new JournalReplay[1];
        final boolean[] past = new boolean[1];
        reader.countingNotices(untilMillis).read((record, header) ->
        {
            if (past[0] || record.epochMillis > untilMillis)
            {
                past[0] = true;
                return;
            }
            if (replay[0] == null)
            {
                observer.begin(header, reader.census());
                replay[0] = new JournalReplay(freshShards(header.shards(), header.policy()), observer).sizedBy(reader);
            }
            replay[0].onRecord(record, header);
        }, false);
        if (replay[0] != null)
        {
            replay[0].finish();
        }
        if (replay[0] != null && untilMillis != Units.MAX_INSTANT)
        {
            replay[0].shards.forEach(shard -> shard.tick(untilMillis));
        }
        return replay[0];
    }

    /**
     * {@code count} fresh shards under {@code policy}, made for a replay: {@link
     * #REPLAY_POOLED_RESERVATIONS} reservations pooled at first, more made as a journal asks.
     */
    public static List<PacingShard> freshShards(final int count, final PacingPolicy policy)
    {
        final List<PacingShard> shards = new ArrayList<>(count);
        for (int i = 0; i < count; i++)
        {
            shards.add(new PacingShard(policy, REPLAY_POOLED_RESERVATIONS));
        }
        return shards;
    }

    /**
     * Sizes the shards' dedupe tables from {@code reader}'s {@link JournalReader#census() census}
     * (a reader {@link JournalReader#countingNotices() counting notices}, which counts before it
     * hands over the first record): each table then grows straight to the most notices its window
     * holds in the journal, instead of doubling its way there, up to a quarter of the heap in all.
     * Changes no decision and no output. Shards that go on to serve traffic are handed over with
     * {@link #endSizing} after {@link #finish}.
     *
     * @return this replay
     */
    public JournalReplay sizedBy(final JournalReader reader)
    {
        this.sizing = reader;
        return this;
    }

    /** The shards the replay runs on. */
    public List<PacingShard> shards()
    {
        return shards;
    }

    /**
     * Takes the next record. Bids and notices are applied a block at a time ({@link #BLOCK}),
     * anything else at once, after every record before it: call {@link #finish()} after the last
     * record.
     */
    @Override
    public void onRecord(final JournalRecord r, final JournalHeader header)
    {
        if (header.shards() != shards.size())
        {
            throw new IllegalStateException("journal segment was written with " + header.shards() +
                " shard(s), replaying with " + shards.size());
        }
        final EventType type = r.type;
        if (type == EventType.BID_REQUEST || type == EventType.WIN_NOTICE || type == EventType.LOSS_NOTICE)
        {
            pending[pendingCount++].copyOf(r);
            if (pendingCount == BLOCK)
            {
                applyPending();
            }
        }
        else
        {
            applyPending();
            apply(r);
        }
    }

    /** After the last record: applies the bids and notices still waiting, so that the replayed state is whole. */
    public void finish()
    {
        applyPending();
    }

    /**
     * Before the shards serve live traffic (a recovery's, not an audit's): withdraws the census's
     * size hint, so that their tables double from what they hold from here, as a live shard's do,
     * and make now the ring chunks the hint left unmade (a live shard should not make them one at
     * a time under traffic).
     */
    public void endSizing()
    {
        if (sizing != null)
        {
            shards.forEach(shard -> shard.expectNotices(0));
        }
    }

    /** Applies the bids and notices waiting, touching them all first. */
    private void applyPending()
    {
        if (sizing != null && !sized && pendingCount > 0)
        {
            sized = true;
            expectNotices(shards, sizing.census(), Runtime.getRuntime().maxMemory() / 4);
        }
        touched += touchBlock(shards, router, pending, pendingCount) + observer.touch(pending, pendingCount);
        final int count = pendingCount;
        pendingCount = 0;
        for (int i = 0; i < count; i++)
        {
            apply(pending[i]);
        }
    }

    /**
     * Reads, and changes nothing of, the state of {@code shards} that the {@code count} bids and
     * notices of {@code block} will read, so that their cache misses overlap instead of each record
     * waiting on its own (see {@link #BLOCK}).
     *
     * @return what was read (means nothing: keep it, so the reads are not optimised away)
     */
    public static long touchBlock(final List<PacingShard> shards, final ShardRouter router, final JournalRecord[] block,
        final int count)
    {
        long read = 0;
        // noted first, then read in loops of their own, each loop so short that all its misses are
        // in flight at once (in one loop with the rest, the reorder buffer held two or three; read
        // as each was hashed, three or four)
        for (int i = 0; i < count; i++)
        {
            final JournalRecord r = block[i];
            shards.get(router.shardOf(r.campaignId)).note(r.requestId, r.campaignId, r.type != EventType.BID_REQUEST);
        }
        for (int i = 0; i < shards.size(); i++)
        {
            read += shards.get(i).touchNoted();
        }
        return read;
    }

    /**
     * Tells each of {@code shards} how many notices its dedupe window will hold at most, as {@code census}
     * counted them, if it counted as many shards; their tables together are sized for no more than
     * {@code capBytes}: the census also counts duplicates and unknown campaigns' notices, which no
     * table holds, and a flood of those must not size the tables past what the heap can give them.
     */
    public static void expectNotices(final List<PacingShard> shards, final NoticeCensus census, final long capBytes)
    {
        if (census != null && census.shards() == shards.size())
        {
            final long capPerShard = capBytes / shards.size() / SettledNotices.BYTES_PER_NOTICE;
            for (int i = 0; i < shards.size(); i++)
            {
                shards.get(i).expectNotices((int)Math.min(census.expected(i), capPerShard));
            }
        }
    }

    private void apply(final JournalRecord r)
    {
        events++;
        final EventType type = r.type;
        Reason replayed = null;
        if (type == EventType.CAMPAIGN_UPDATE)
        {
            definition = r.definition();
            r.campaignId = definition.id();
        }
        if (type.broadcast())
        {
            for (final PacingShard shard : shards)
            {
                PacingStep.apply(shard, type, r.requestId, r.campaignId, r.cpmMicros, r.epochMillis, null);
            }
        }
        else if (type == EventType.BID_REQUEST && r.reason == Reason.OVERLOADED.value())
        {
            // shed without evaluation (queue deadline, or a contained failure): the shard never saw it
            replayed = Reason.OVERLOADED;
        }
        else
        {
            final Reason reason = PacingStep.apply(shards.get(router.shardOf(r.campaignId)), type, r.requestId,
                r.campaignId, r.cpmMicros, r.epochMillis, definition);
            if (type == EventType.BID_REQUEST)
            {
                replayed = reason;
                if (reason.value() != r.reason)
                {
                    mismatch(r);
                }
            }
        }
        observer.applied(r, replayed, type.broadcast() ? null : shards.get(router.shardOf(r.campaignId)));
    }

    private void mismatch(final JournalRecord r)
    {
        if (mismatches++ == 0)
        {
            firstMismatchSequence = r.sequence;
        }
    }

    /** Bids whose re-made decision differs from the recorded one. */
    public long mismatches()
    {
        return mismatches;
    }

    /** The journal sequence of the first mismatch, or -1. */
    public long firstMismatchSequence()
    {
        return firstMismatchSequence;
    }

    public long events()
    {
        return events;
    }

    /** The campaign's state as its shard sees it now, or null if it is not defined. */
    public CampaignSnapshot state(final long campaignId)
    {
        return shards.get(router.shardOf(campaignId)).snapshot(campaignId);
    }

    /** The campaign's book in the replayed state, or null. */
    public CampaignBook campaign(final long campaignId)
    {
        return shards.get(router.shardOf(campaignId)).campaign(campaignId);
    }
}
