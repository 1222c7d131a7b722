package io.pacer.cluster;

import com.lmax.disruptor.EventPoller;
import io.aeron.cluster.client.AeronCluster;
import io.aeron.cluster.client.EgressListener;
import io.aeron.logbuffer.Header;
import io.pacer.cluster.sbe.AnswersDecoder;
import io.pacer.cluster.sbe.MessageHeaderDecoder;
import io.pacer.model.CampaignDefinition;
import io.pacer.pipeline.AdminCommand;
import io.pacer.pipeline.EventType;
import io.pacer.pipeline.PacerEvent;
import io.pacer.pipeline.PacerThreads;
import io.pacer.pipeline.Replier;
import io.pacer.pipeline.Responder;
import io.pacer.pipeline.RingConsumer;
import io.pacer.pipeline.ShardView;
import io.pacer.wire.Reason;
import org.agrona.CloseHelper;
import org.agrona.DirectBuffer;
import org.agrona.ExpandableArrayBuffer;
import org.agrona.io.ExpandableDirectBufferOutputStream;
import org.agrona.concurrent.Agent;
import org.agrona.concurrent.AgentRunner;
import org.agrona.concurrent.AgentTerminationException;
import org.agrona.concurrent.IdleStrategy;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.DataOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;

/**
 * A node's side of cluster mode: the one consumer of its ring (an {@link Agent} on a thread of
 * its own). Each ring batch becomes an {@code IngressBatch} offered to the cluster through the
 * node's {@link AeronCluster} client; each {@code Answers} the leader sends back is written to
 * the connections that asked, once the log holds the batch on a majority.
 * <p>
 * Batches are numbered from a base taken at start (a restarted node's numbers stay above its
 * last life's). Until answered, a batch is kept: when a new leader is elected, or the client
 * reconnects, every unanswered batch is sent again, in order. The service decides a batch once
 * and answers a resend with what it decided ({@link AnswerWindow}), so nothing is lost or
 * decided twice. At most {@link AnswerWindow#CAPACITY} batches are in flight.
 * <p>
 * Admin writes complete once this node's own member has applied them; reads are answered from
 * its state ({@link PacerClusteredService#read}). Ticks are dropped: the cluster's timer keeps time.
 */
public final class ClusterIngress implements RingConsumer, Agent, EventPoller.Handler<PacerEvent>, EgressListener
{
    private static final Logger LOG = LoggerFactory.getLogger(ClusterIngress.class);
    /**
     * An answer this late is taken as lost (the leader's offer to this node's session found it
     * back-pressured or not yet connected, say) and every unanswered batch is sent again; a
     * batch decided already is answered from the window.
     */
    private static final long RESEND_AFTER_NANOS = TimeUnit.SECONDS.toNanos(3);

    private final ClusterSettings settings;
    private final int origin;
    private final EventPoller<PacerEvent> poller;
    private final PacerClusteredService local;
    private final Replier.DecisionListener decisions;
    private final List<ShardView> shardViews;
    private final BatchWindow window;
    private final MessageHeaderDecoder headerDecoder = new MessageHeaderDecoder();
    private final AnswersDecoder answersDecoder = new AnswersDecoder();
    private final List<Responder> touched = new ArrayList<>();
    /** One definition's bytes ({@code CampaignDefinition.write}), written in place, copied once into its batch. */
    private final ExpandableDirectBufferOutputStream definitionBytes =
        new ExpandableDirectBufferOutputStream(new ExpandableArrayBuffer(256));
    private final DataOutputStream definitionOut = new DataOutputStream(definitionBytes);
    private final IdleStrategy idle;
    private byte[] reasons = new byte[1024];
    private AeronCluster client;
    private AeronCluster.AsyncConnect connecting;
    private AgentRunner runner;
    private volatile boolean connected;
    /** Whether the last poll found the ring empty. */
    private volatile boolean ringDrained;
    /** Set by {@link #close} once it has waited: a loop waiting for room gives up. */
    private volatile boolean stopping;
    private final long keepAliveNanos;
    private long lastSendNanos;
    private final AtomicLong lateResends = new AtomicLong();
    private volatile long backPressured;
    private volatile long resentBatches;
    private final AtomicLong reconnects = new AtomicLong();
    private final AtomicLong leaderChanges = new AtomicLong();
    private volatile int inFlight;

    /**
     * @param local     this node's own member's service: admin commands complete from its state
     * @param decisions told about each answered bid (latency metrics)
     */
    public ClusterIngress(final ClusterSettings settings, final EventPoller<PacerEvent> poller,
        final PacerClusteredService local, final Replier.DecisionListener decisions)
    {
        this.settings = settings;
        this.origin = settings.memberId();
        this.poller = poller;
        this.local = local;
        this.decisions = decisions;
        this.shardViews = ServiceShardView.of(local);
        this.idle = settings.newIdleStrategy();
        // an idle node's session must outlive session-timeout
        this.keepAliveNanos = TimeUnit.MILLISECONDS.toNanos(settings.sessionTimeoutMs()) / 3;
        // a message may be an eighth of a term; leave room for Aeron's session header
        this.window = new BatchWindow(origin, firstBatch(settings), Math.min(settings.termLength() / 8, 1 << 20) - 1024);
    }

    /**
     * The number of this life's first batch: above anything a previous life of this node sent, or
     * the members would take its batches for resends. Milliseconds since the epoch with 2^20
     * batches each, and, in case the clock stepped back across a restart, at least 2^40 above the
     * previous life's first (kept beside the member's directories).
     */
    static long firstBatch(final ClusterSettings settings)
    {
        final java.nio.file.Path file = settings.dir().toPath().resolve("node-batches.first");
        long previous = 0;
        try
        {
            if (java.nio.file.Files.exists(file))
            {
                previous = Long.parseLong(java.nio.file.Files.readString(file).trim());
            }
            final long first = Math.max(System.currentTimeMillis() << 20, previous + (1L << 40));
            java.nio.file.Files.createDirectories(file.getParent());
            final java.nio.file.Path temp = file.resolveSibling(file.getFileName() + ".tmp");
            java.nio.file.Files.writeString(temp, Long.toString(first));
            java.nio.file.Files.move(temp, file, java.nio.file.StandardCopyOption.REPLACE_EXISTING,
                java.nio.file.StandardCopyOption.ATOMIC_MOVE);
            return first;
        }
        catch (final java.io.IOException | NumberFormatException ex)
        {
            throw new IllegalStateException("cannot keep this node's batch numbers in " + file + ": " + ex, ex);
        }
    }

    @Override
    public void start()
    {
        runner = new AgentRunner(idle, error -> LOG.error("cluster ingress: {}", error.toString(), error), null, this);
        AgentRunner.startOnThread(runner, runnable -> PacerThreads.thread(roleName(), runnable));
    }

    @Override
    public String roleName()
    {
        return "pacer-cluster-ingress";
    }

    @Override
    public int doWork() throws Exception
    {
        final long nowNanos = System.nanoTime();
        int work = 0;
        if (client == null || client.isClosed())
        {
            work += connect();
        }
        else
        {
            work += client.pollEgress();
            work += checkLateAndIdle(nowNanos);
        }
        if (window.hasRoom())
        {
            final boolean polled = poller.poll(this) == EventPoller.PollState.PROCESSING;
            ringDrained = !polled;
            work += polled ? 1 : 0;
            window.seal();
        }
        work += sendPending(nowNanos);
        inFlight = window.inFlight();
        backPressured = window.backPressured();
        resentBatches = window.resent();
        return work;
    }

    /** Sends every unanswered batch again if the oldest's answer is late; keeps an idle session alive. */
    private int checkLateAndIdle(final long nowNanos)
    {
        final OutBatch late = window.lateHead(nowNanos, RESEND_AFTER_NANOS);
        if (late != null)
        {
            LOG.warn("node {}: no answer to batch {} after {} ms; sending {} unanswered batch(es) again", origin,
                late.seq, TimeUnit.NANOSECONDS.toMillis(nowNanos - late.sentAtNanos), window.inFlight());
            PacerClusteredService.increment(lateResends);
            // once per timeout, even while the offers fail (no leader yet)
            late.sentAtNanos = nowNanos;
            window.resendAll();
            return 1;
        }
        if (nowNanos - lastSendNanos > keepAliveNanos && client.sendKeepAlive())
        {
            lastSendNanos = nowNanos;
            return 1;
        }
        return 0;
    }

    private int connect()
    {
        if (client != null)
        {
            LOG.warn("cluster client of node {} closed; reconnecting", origin);
            CloseHelper.quietClose(client);
            client = null;
            connected = false;
            PacerClusteredService.increment(reconnects);
        }
        if (connecting == null)
        {
            connecting = AeronCluster.asyncConnect(clientContext());
        }
        try
        {
            client = connecting.poll();
        }
        catch (final RuntimeException ex)
        {
            LOG.warn("cluster client of node {} could not connect ({}); retrying", origin, ex.toString());
            CloseHelper.quietClose(connecting);
            connecting = null;
            return 0;
        }
        if (client == null)
        {
            return 0;
        }
        connecting = null;
        connected = true;
        LOG.info("node {} connected to the cluster, leader {}", origin, client.leaderMemberId());
        window.resendAll();
        return 1;
    }

    private AeronCluster.Context clientContext()
    {
        return new AeronCluster.Context()
            .aeronDirectoryName(settings.aeronDir())
            .ingressChannel("aeron:udp?term-length=" + settings.termLength())
            .ingressEndpoints(settings.ingressEndpoints())
            .egressChannel("aeron:udp?endpoint=" + settings.host() + ":0|term-length=" + settings.termLength())
            .egressListener(this)
            // Aeron's default handler exits the process when the driver stops answering
            .errorHandler(error -> LOG.error("cluster client of node {}: {}", origin, error.toString()))
            .messageTimeoutNs(TimeUnit.SECONDS.toNanos(5))
            .idleStrategy(settings.newIdleStrategy());
    }

    // ---- ring to batches

    @Override
    public boolean onEvent(final PacerEvent event, final long sequence, final boolean endOfBatch)
    {
        try
        {
            take(event);
        }
        finally
        {
            event.release();
        }
        return window.hasRoom();
    }

    private void take(final PacerEvent event)
    {
        switch (event.type())
        {
            case BID_REQUEST ->
            {
                final OutBatch batch = room(0);
                final int i = batch.add(EventType.BID_REQUEST, event.requestId(), event.campaignId(), event.cpmMicros(),
                    event.ingressNanos());
                batch.responders[i] = event.responder();
            }
            case WIN_NOTICE, LOSS_NOTICE ->
                room(0).add(event.type(), event.requestId(), event.campaignId(), event.cpmMicros(), event.ingressNanos());
            case CAMPAIGN_UPDATE ->
            {
                final int length = encode(event.definition());
                final OutBatch batch = room(length);
                final int i = batch.add(EventType.CAMPAIGN_UPDATE, 0, event.campaignId(), 0, event.ingressNanos());
                batch.addDefinition(i, definitionBytes.buffer(), length);
                batch.commands[i] = event.command();
            }
            case CAMPAIGN_BATCH -> takeBatch(event.command(), event.ingressNanos());
            // after every write this node took before it (a PUT then a GET on one connection)
            case STATE_QUERY -> local.read(event.command(), origin, window.readBarrier());
            case END_OF_STREAM -> window.endOfStream(event.responder());
            case SNAPSHOT -> event.snapshotCommand().completeExceptionally(new UnsupportedOperationException(
                "cluster mode: snapshots are the cluster's own (Aeron's ClusterTool snapshot)"));
            case TICK ->
            {
                // the cluster's timer keeps time
            }
            default -> throw new IllegalStateException("unknown event type " + event.type());
        }
    }

    /** A campaign batch, in as many parts as the message size needs; the service applies it whole. */
    private void takeBatch(final AdminCommand command, final long nanos)
    {
        final List<CampaignDefinition> definitions = command.definitions();
        OutBatch batch = room(0);
        int i = batch.add(EventType.CAMPAIGN_BATCH, 0, 0, 0, nanos);
        for (int d = 0, size = definitions.size(); d < size; d++)
        {
            final int length = encode(definitions.get(d));
            if (window.tooLarge(batch.sizeWith(length)))
            {
                batch.continues = true;
                window.seal();
                batch = room(length);
                i = batch.add(EventType.CAMPAIGN_BATCH, 0, 0, 0, nanos);
            }
            batch.addDefinition(i, definitionBytes.buffer(), length);
        }
        batch.commands[i] = command;
    }

    private int encode(final CampaignDefinition definition)
    {
        definitionBytes.wrap(definitionBytes.buffer());
        try
        {
            definition.write(definitionOut);
        }
        catch (final IOException ex)
        {
            throw new UncheckedIOException(ex);
        }
        return definitionBytes.position();
    }

    /** The open batch, with room for an event and {@code definitionBytes}; waits for answers if the window is full. */
    private OutBatch room(final int definitionBytes)
    {
        OutBatch batch;
        while ((batch = window.room(definitionBytes)) == null)
        {
            // a campaign batch larger than the window: wait for answers
            pump();
        }
        return batch;
    }

    private void pump()
    {
        if (stopping)
        {
            throw new AgentTerminationException("node stopping while batches wait for room in the window");
        }
        if (client == null || client.isClosed())
        {
            connect();
        }
        else
        {
            client.pollEgress();
        }
        if (sendPending(System.nanoTime()) == 0)
        {
            idle.idle();
        }
    }

    private int sendPending(final long nowNanos)
    {
        if (client == null || client.isClosed())
        {
            return 0;
        }
        final int sent = window.send(client, nowNanos);
        if (sent > 0)
        {
            lastSendNanos = nowNanos;
        }
        return sent;
    }

    // ---- egress to connections

    @Override
    public void onMessage(final long clusterSessionId, final long timestamp, final DirectBuffer buffer, final int offset,
        final int length, final Header header)
    {
        headerDecoder.wrap(buffer, offset);
        if (headerDecoder.schemaId() != AnswersDecoder.SCHEMA_ID || headerDecoder.templateId() != AnswersDecoder.TEMPLATE_ID)
        {
            return;
        }
        answersDecoder.wrapAndApplyHeader(buffer, offset, headerDecoder);
        final OutBatch batch = answersDecoder.origin() != origin ? null :
            window.awaiting(answersDecoder.batchSeq(), answersDecoder.reasonsLength());
        if (batch == null)
        {
            // another node's, or a second answer to a batch resent
            answersDecoder.skipReasons();
            return;
        }
        final int count = batch.count;
        if (reasons.length < count)
        {
            reasons = new byte[Math.max(count, reasons.length * 2)];
        }
        answersDecoder.getReasons(reasons, 0, count);
        answer(batch);
        window.answered(batch);
    }

    private void answer(final OutBatch batch)
    {
        for (int i = 0; i < batch.count; i++)
        {
            final Responder responder = batch.responders[i];
            if (responder != null)
            {
                final Reason reason = Reason.get(reasons[i]);
                if (responder.append(batch.requestIds[i], reason))
                {
                    touched.add(responder);
                }
                decisions.onDecision(reason.value(), batch.ingressNanos[i]);
            }
            final AdminCommand command = batch.commands[i];
            if (command != null)
            {
                local.read(command, origin, batch.seq);
            }
        }
        for (int i = 0, size = touched.size(); i < size; i++)
        {
            touched.get(i).flush();
        }
        touched.clear();
        decisions.onBatchAnswered();
        for (int i = 0, size = batch.endOfStreams.size(); i < size; i++)
        {
            batch.endOfStreams.get(i).endOfStream();
        }
    }

    @Override
    public void onNewLeader(final long clusterSessionId, final long leadershipTermId, final int leaderMemberId,
        final String ingressEndpoints)
    {
        PacerClusteredService.increment(leaderChanges);
        LOG.info("node {}: new cluster leader {} (term {}); resending {} unanswered batch(es)", origin, leaderMemberId,
            leadershipTermId, window.inFlight());
        window.resendAll();
    }

    // ---- state and lifecycle

    /** Whether this node's client is connected to the cluster (it can decide). */
    public boolean connected()
    {
        return connected;
    }

    /** Offers refused because the ingress was back-pressured. */
    public long backPressured()
    {
        return backPressured;
    }

    /** Batches sent again after a leader change or reconnect. */
    public long resentBatches()
    {
        return resentBatches;
    }

    /** Times the client was lost and connected again. */
    public long reconnects()
    {
        return reconnects.get();
    }

    /** New leaders this node's client has been told of. */
    public long leaderChanges()
    {
        return leaderChanges.get();
    }

    /** Batches sent or waiting, not yet answered. */
    public int inFlight()
    {
        return inFlight;
    }

    @Override
    public List<ShardView> shards()
    {
        return shardViews;
    }

    /** Waits up to 10 s for everything taken to be answered, then stops. */
    @Override
    public void close()
    {
        final long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (runner != null && connected && (inFlight > 0 || !ringDrained) && System.nanoTime() < deadline)
        {
            LockSupport.parkNanos(1_000_000);
        }
        stopping = true;
        CloseHelper.quietClose(runner);
    }

    /**
     * On the agent's thread, last: admin commands still waiting fail (their callers hear so at
     * once); bids still waiting get no answer and their connections close with the server.
     */
    @Override
    public void onClose()
    {
        CloseHelper.quietClose(connecting);
        CloseHelper.quietClose(client);
        connected = false;
        final IllegalStateException stopped = new IllegalStateException("the node stopped before the cluster answered");
        window.failCommands(stopped);
        try
        {
            poller.poll((event, sequence, endOfBatch) ->
            {
                if (event.command() != null)
                {
                    event.command().completeExceptionally(stopped);
                }
                if (event.snapshotCommand() != null)
                {
                    event.snapshotCommand().completeExceptionally(stopped);
                }
                event.release();
                return true;
            });
        }
        catch (final Exception ex)
        {
            LOG.warn("node {}: could not fail what was left in the ring: {}", origin, ex.toString());
        }
    }

    /** Times an answer was so late that every unanswered batch was sent again. */
    public long lateResends()
    {
        return lateResends.get();
    }
}
