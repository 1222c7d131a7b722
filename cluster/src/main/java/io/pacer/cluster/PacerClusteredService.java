package io.pacer.cluster;

import io.aeron.ExclusivePublication;
import io.aeron.Image;
import io.aeron.Publication;
import io.aeron.cluster.codecs.CloseReason;
import io.aeron.cluster.service.ClientSession;
import io.aeron.cluster.service.Cluster;
import io.aeron.cluster.service.ClusteredService;
import io.aeron.logbuffer.FragmentHandler;
import io.aeron.logbuffer.Header;
import io.pacer.cluster.sbe.AnswersEncoder;
import io.pacer.cluster.sbe.IngressBatchDecoder;
import io.pacer.cluster.sbe.MessageHeaderDecoder;
import io.pacer.cluster.sbe.MessageHeaderEncoder;
import io.pacer.cluster.sbe.SnapshotChunkDecoder;
import io.pacer.cluster.sbe.SnapshotChunkEncoder;
import io.pacer.pipeline.AdminCommand;
import org.agrona.DirectBuffer;
import org.agrona.ExpandableArrayBuffer;
import org.agrona.ExpandableDirectByteBuffer;
import org.agrona.concurrent.ManyToOneConcurrentArrayQueue;
import org.agrona.concurrent.UnsafeBuffer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayDeque;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The pacing state machine as an Aeron Cluster service: every member runs one, applies the
 * committed log in order, and so holds the same {@link PacerState}. Each {@code IngressBatch}
 * is decided at the log's timestamp and answered, by the leader only (a follower's offers go
 * nowhere), on the session that sent it. Ticks are a cluster timer. Snapshots are the state in
 * chunks.
 * <p>
 * Admin reads and the completion of admin writes run here too, between log messages
 * ({@link #doBackgroundWork}): a read never sees half of a batch, and a write completes on the
 * node that took it only once this member has applied it, so a read on that node sees it.
 */
public final class PacerClusteredService implements ClusteredService
{
    private static final Logger LOG = LoggerFactory.getLogger(PacerClusteredService.class);
    /** The tick timer's correlation id: the only timer. */
    static final long TICK_TIMER = 1;
    private static final int SNAPSHOT_CHUNK = 32 * 1024;
    /** Tries at sending one batch's answers before leaving it to the node's resend. */
    private static final int OFFER_ATTEMPTS = 3;

    private final PacerState state;
    private final long tickIntervalMillis;
    private final ManyToOneConcurrentArrayQueue<LocalRead> reads = new ManyToOneConcurrentArrayQueue<>(4096);
    private final ArrayDeque<LocalRead> waiting = new ArrayDeque<>();
    private final MessageHeaderDecoder headerDecoder = new MessageHeaderDecoder();
    private final MessageHeaderEncoder headerEncoder = new MessageHeaderEncoder();
    private final IngressBatchDecoder batchDecoder = new IngressBatchDecoder();
    private final AnswersEncoder answersEncoder = new AnswersEncoder();
    private final SnapshotChunkEncoder chunkEncoder = new SnapshotChunkEncoder();
    private final SnapshotChunkDecoder chunkDecoder = new SnapshotChunkDecoder();
    private final ExpandableArrayBuffer reasons = new ExpandableArrayBuffer(1024);
    private final ExpandableDirectByteBuffer out = new ExpandableDirectByteBuffer(1024);
    private Cluster cluster;
    private final AtomicLong leadershipTerms = new AtomicLong();
    private final AtomicLong duplicateBatches = new AtomicLong();
    private final AtomicLong snapshotsLoaded = new AtomicLong();
    private final AtomicLong unsentAnswers = new AtomicLong();

    /** An admin command to complete from the state once {@code origin}'s batch {@code minSeq} is applied. */
    private record LocalRead(AdminCommand command, int origin, long minSeq)
    {
    }

    private final MemberJournal journal;

    /** @param journal this member's audit journal, or null for none */
    public PacerClusteredService(final PacerState state, final long tickIntervalMillis, final MemberJournal journal)
    {
        this.state = state;
        this.tickIntervalMillis = tickIntervalMillis;
        this.journal = journal;
        if (journal != null)
        {
            state.recorder(journal);
        }
    }

    @Override
    public void onStart(final Cluster cluster, final Image snapshotImage)
    {
        // the consensus module's default clock: log timestamps in epoch milliseconds, as pacing wants
        this.cluster = cluster;
        if (snapshotImage != null)
        {
            loadSnapshot(snapshotImage);
        }
        if (journal != null)
        {
            journal.open(state.records());
        }
    }

    @Override
    public void onSessionOpen(final ClientSession session, final long timestamp)
    {
        ensureTimer(timestamp);
    }

    @Override
    public void onSessionClose(final ClientSession session, final long timestamp, final CloseReason closeReason)
    {
        // a node's batches are keyed by its member id, not its session: a reconnected node resends
    }

    @Override
    public void onSessionMessage(
        final ClientSession session, final long timestamp, final DirectBuffer buffer, final int offset, final int length,
        final Header header)
    {
        headerDecoder.wrap(buffer, offset);
        if (headerDecoder.schemaId() != IngressBatchDecoder.SCHEMA_ID ||
            headerDecoder.templateId() != IngressBatchDecoder.TEMPLATE_ID)
        {
            LOG.warn("session {} sent a message that is not an IngressBatch (schema {}, template {}); ignored",
                session.id(), headerDecoder.schemaId(), headerDecoder.templateId());
            return;
        }
        batchDecoder.wrapAndApplyHeader(buffer, offset, headerDecoder);
        final int origin = batchDecoder.origin();
        final long seq = batchDecoder.batchSeq();
        final int count = state.decide(batchDecoder, timestamp, reasons);
        if (count < 0)
        {
            LOG.error("node {} resent batch {}, older than the {} batches remembered; not answered", origin, seq,
                AnswerWindow.CAPACITY);
            return;
        }
        if (state.wasDuplicate())
        {
            increment(duplicateBatches);
        }
        answersEncoder.wrapAndApplyHeader(out, 0, headerEncoder).origin(origin).batchSeq(seq)
            .putReasons(reasons, 0, count);
        offer(session, MessageHeaderEncoder.ENCODED_LENGTH + answersEncoder.encodedLength());
        ensureTimer(timestamp);
    }

    /**
     * Offers an answer to its session; a follower's session takes it without sending. A few tries
     * only: one slow or cut-off node must not hold up every node's answers on this one thread. An
     * answer not sent is not lost: its node sends the batch again when the answer is late, and
     * gets it from the window.
     */
    private void offer(final ClientSession session, final int length)
    {
        for (int attempt = 0; attempt < OFFER_ATTEMPTS; attempt++)
        {
            final long result = session.offer(out, 0, length);
            if (result > 0)
            {
                return;
            }
            if (result == Publication.CLOSED || result == Publication.NOT_CONNECTED ||
                result == Publication.MAX_POSITION_EXCEEDED)
            {
                break;
            }
            cluster.idleStrategy().idle();
        }
        increment(unsentAnswers);
    }

    private void ensureTimer(final long timestamp)
    {
        if (state.timerDeadline() == 0)
        {
            scheduleTick(timestamp + tickIntervalMillis);
        }
    }

    private void scheduleTick(final long deadline)
    {
        state.timerDeadline(deadline);
        while (!cluster.scheduleTimer(TICK_TIMER, deadline))
        {
            cluster.idleStrategy().idle();
        }
    }

    @Override
    public void onTimerEvent(final long correlationId, final long timestamp)
    {
        if (correlationId == TICK_TIMER)
        {
            state.tick(timestamp);
            scheduleTick(timestamp + tickIntervalMillis);
        }
    }

    @Override
    public void onTakeSnapshot(final ExclusivePublication snapshotPublication)
    {
        final ByteArrayOutputStream bytes = new ByteArrayOutputStream(1 << 16);
        try
        {
            state.writeTo(new DataOutputStream(bytes));
        }
        catch (final IOException ex)
        {
            throw new UncheckedIOException(ex);
        }
        final byte[] all = bytes.toByteArray();
        final UnsafeBuffer source = new UnsafeBuffer(all);
        // a message is at most an eighth of the term: small terms take smaller chunks
        final int chunk = Math.min(SNAPSHOT_CHUNK, snapshotPublication.maxMessageLength() - 64);
        int position = 0;
        do
        {
            final int size = Math.min(chunk, all.length - position);
            final boolean last = position + size == all.length;
            chunkEncoder.wrapAndApplyHeader(out, 0, headerEncoder).last((short)(last ? 1 : 0)).putBytes(source, position, size);
            final int length = MessageHeaderEncoder.ENCODED_LENGTH + chunkEncoder.encodedLength();
            long result;
            while ((result = snapshotPublication.offer(out, 0, length)) < 0)
            {
                if (result == Publication.CLOSED || result == Publication.MAX_POSITION_EXCEEDED)
                {
                    throw new IllegalStateException("the snapshot publication closed while the snapshot was written");
                }
                cluster.idleStrategy().idle();
            }
            position += size;
        }
        while (position < all.length);
        LOG.info("cluster snapshot taken: {} bytes", all.length);
    }

    private void loadSnapshot(final Image image)
    {
        final ByteArrayOutputStream bytes = new ByteArrayOutputStream(1 << 16);
        final boolean[] done = {false};
        final FragmentHandler handler = (buffer, offset, length, header) ->
        {
            headerDecoder.wrap(buffer, offset);
            chunkDecoder.wrapAndApplyHeader(buffer, offset, headerDecoder);
            final boolean last = chunkDecoder.last() == 1;
            final byte[] chunk = new byte[chunkDecoder.bytesLength()];
            chunkDecoder.getBytes(chunk, 0, chunk.length);
            bytes.write(chunk, 0, chunk.length);
            done[0] |= last;
        };
        final io.aeron.FragmentAssembler assembler = new io.aeron.FragmentAssembler(handler);
        while (!done[0])
        {
            final int fragments = image.poll(assembler, 16);
            if (fragments == 0)
            {
                if (image.isClosed())
                {
                    throw new IllegalStateException("snapshot image closed before its last chunk");
                }
                cluster.idleStrategy().idle();
            }
        }
        try
        {
            state.readFrom(new DataInputStream(new ByteArrayInputStream(bytes.toByteArray())));
        }
        catch (final IOException ex)
        {
            throw new UncheckedIOException(ex);
        }
        increment(snapshotsLoaded);
        LOG.info("cluster snapshot loaded: {} bytes", bytes.size());
    }

    @Override
    public void onRoleChange(final Cluster.Role newRole)
    {
        LOG.info("cluster member {} is now {}", cluster.memberId(), newRole);
    }

    @Override
    public void onNewLeadershipTermEvent(
        final long leadershipTermId, final long logPosition, final long timestamp, final long termBaseLogPosition,
        final int leaderMemberId, final int logSessionId, final TimeUnit timeUnit, final int appVersion)
    {
        increment(leadershipTerms);
    }

    @Override
    public void onTerminate(final Cluster cluster)
    {
        LOG.info("cluster member {} terminating", cluster.memberId());
    }

    @Override
    public int doBackgroundWork(final long nowNs)
    {
        int work = 0;
        for (int i = waiting.size(); i > 0; i--)
        {
            final LocalRead read = waiting.poll();
            work += complete(read) ? 1 : 0;
        }
        LocalRead read;
        while ((read = reads.poll()) != null)
        {
            work += complete(read) ? 1 : 0;
        }
        return work;
    }

    private boolean complete(final LocalRead read)
    {
        if (state.lastSeq(read.origin()) < read.minSeq())
        {
            waiting.add(read);
            return false;
        }
        try
        {
            state.answer(read.command());
        }
        catch (final RuntimeException ex)
        {
            read.command().completeExceptionally(ex);
        }
        return true;
    }

    /**
     * From any thread: completes {@code command} from this member's state once it has applied
     * batch {@code minSeq} of node {@code origin} (0: at once), on the service thread.
     */
    public void read(final AdminCommand command, final int origin, final long minSeq)
    {
        if (!reads.offer(new LocalRead(command, origin, minSeq)))
        {
            command.completeExceptionally(new IllegalStateException("too many admin reads waiting for the cluster service"));
        }
    }

    /** One writer (the owning agent's thread): a release store, no read-modify-write. */
    static void increment(final AtomicLong counter)
    {
        counter.lazySet(counter.get() + 1);
    }

    /** New leadership terms this member's log has held (elections won by someone). */
    public long leadershipTerms()
    {
        return leadershipTerms.get();
    }

    /** Resent batches answered from the window instead of decided again. */
    public long duplicateBatches()
    {
        return duplicateBatches.get();
    }

    /** Snapshots this service started from (0 or 1). */
    public long snapshotsLoaded()
    {
        return snapshotsLoaded.get();
    }

    /** Answers not sent (a node's session back-pressured or gone): its node resends and gets them then. */
    public long unsentAnswers()
    {
        return unsentAnswers.get();
    }

    /** This member's audit journal, or null. */
    public MemberJournal journal()
    {
        return journal;
    }

    /** Once the service's container has stopped: flushes and closes the audit journal. */
    void closeJournal()
    {
        if (journal != null)
        {
            journal.close();
        }
    }

    /** The state; read it only on the service thread, or once the service has stopped. */
    public PacerState state()
    {
        return state;
    }
}
