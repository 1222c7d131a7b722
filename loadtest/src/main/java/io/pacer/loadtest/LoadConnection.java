package io.pacer.loadtest;

import io.pacer.wire.netty.FrameReader;
import io.netty.buffer.ByteBuf;
import io.netty.channel.ChannelHandlerContext;
import io.netty.handler.codec.ByteToMessageDecoder;
import io.netty.util.concurrent.ScheduledFuture;
import io.pacer.wire.FrameEncoder;
import io.pacer.wire.FrameListener;
import io.pacer.wire.FrameParser;
import io.pacer.wire.ErrorCode;
import org.agrona.concurrent.UnsafeBuffer;

import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;

/**
 * One load-generating connection, driven entirely on its event loop. Closed loop: keep
 * {@code inFlight} requests outstanding, sending one for each answer. Open loop: send on a fixed
 * schedule and measure each answer from the request's <em>intended</em> send time, so a server
 * stall shows up in the latencies instead of silently slowing the sender. Every answer is
 * checked against the table of outstanding request ids; each BID is followed, as a simulated
 * exchange would, by a win or loss notice (or, for a configured share, by nothing).
 */
final class LoadConnection extends ByteToMessageDecoder implements FrameListener
{
    /** Outstanding-request slots per connection (a power of two). */
    static final int WINDOW = 1 << 18;
    private static final int MASK = WINDOW - 1;
    private static final long TICK_NANOS = TimeUnit.MICROSECONDS.toNanos(100);
    private static final int MAX_PER_TICK = 20_000;

    private final LoadOptions options;
    private final LoadClock clock;
    private final long idPrefix;
    private final SplittableRandom random;
    private final FrameReader reader = new FrameReader(1 << 16);
    private final FrameEncoder encoder = new FrameEncoder();
    private final UnsafeBuffer scratch = new UnsafeBuffer(new byte[64]);
    private final long ratePerSecond;

    private final long[] sentAtNanos = new long[WINDOW];
    private final long[] slotRequestId = new long[WINDOW];
    private final long[] slotCampaignId = new long[WINDOW];
    private final long[] slotBidCpmMicros = new long[WINDOW];

    final AnswerTally tally = new AnswerTally();
    long sent;
    long outstanding;
    long unknownAnswers;
    long errorFrames;
    long invalidFrames;
    long windowFull;
    boolean disconnected;

    private ChannelHandlerContext ctx;
    private ByteBuf out;
    private long sequence;
    private boolean stopped;
    private ScheduledFuture<?> sender;

    LoadConnection(final LoadOptions options, final LoadClock clock, final int index)
    {
        this.options = options;
        this.clock = clock;
        // request ids: this run (notices are deduplicated by request id, so runs against one
        // server must not reuse ids), then the connection, then a 32-bit sequence
        this.idPrefix = (clock.runId() << 44) | (((long)index + 1) << 32);
        this.random = new SplittableRandom(options.seed() * 1_000_003L + index);
        this.ratePerSecond = Math.max(1, options.ratePerSecond() / options.connections());
    }

    @Override
    public void channelActive(final ChannelHandlerContext ctx)
    {
        this.ctx = ctx;
        if (options.openLoop())
        {
            sender = ctx.executor().scheduleAtFixedRate(this::sendDue, 0, TICK_NANOS, TimeUnit.NANOSECONDS);
        }
        else
        {
            for (int i = 0; i < options.inFlight(); i++)
            {
                sendRequest(clock.nanoTime());
            }
            flush();
        }
    }

    @Override
    public void channelInactive(final ChannelHandlerContext ctx) throws Exception
    {
        if (!stopped)
        {
            disconnected = true;
        }
        stop();
        super.channelInactive(ctx);
    }

    @Override
    protected void decode(final ChannelHandlerContext ctx, final ByteBuf in, final List<Object> unused)
    {
        if (reader.read(in, this) == FrameParser.FRAMING_LOST)
        {
            invalidFrames++;
            in.skipBytes(in.readableBytes());
            ctx.close();
        }
    }

    @Override
    public void channelReadComplete(final ChannelHandlerContext ctx) throws Exception
    {
        flush();
        super.channelReadComplete(ctx);
    }

    // ---- sending ----

    private void sendDue()
    {
        final long now = clock.nanoTime();
        if (now >= clock.sendUntilNanos() || sent >= clock.maxRequestsPerConnection())
        {
            stop();
            return;
        }
        final long due = Math.min((now - clock.startNanos()) * ratePerSecond / 1_000_000_000L,
            clock.maxRequestsPerConnection()) - sent;
        final long count = Math.min(due, MAX_PER_TICK);
        for (long i = 0; i < count; i++)
        {
            final long intended = clock.startNanos() + sent * 1_000_000_000L / ratePerSecond;
            sendRequest(intended);
        }
        flush();
    }

    private void sendRequest(final long timestampNanos)
    {
        if (stopped)
        {
            return;
        }
        final long seq = ++sequence;
        final int slot = (int)(seq & MASK);
        sent++;
        if (sentAtNanos[slot] != 0)
        {
            windowFull++;
            return;
        }
        final long requestId = idPrefix | seq;
        final long campaignId = options.campaignBase() + random.nextInt(options.campaigns());
        final long bid = options.bidMinCpmMicros() == options.bidMaxCpmMicros() ? options.bidMinCpmMicros() :
            random.nextLong(options.bidMinCpmMicros(), options.bidMaxCpmMicros() + 1);
        sentAtNanos[slot] = timestampNanos;
        slotRequestId[slot] = requestId;
        slotCampaignId[slot] = campaignId;
        slotBidCpmMicros[slot] = bid;
        outstanding++;
        write(encoder.bidRequest(scratch, 0, requestId, campaignId, bid));
    }

    private void write(final int length)
    {
        if (out == null)
        {
            out = ctx.alloc().directBuffer(4096);
        }
        out.writeBytes(scratch.byteArray(), 0, length);
    }

    private void flush()
    {
        if (out != null)
        {
            final ByteBuf batch = out;
            out = null;
            ctx.writeAndFlush(batch, ctx.voidPromise());
        }
    }

    /** Stops sending; outstanding answers are still read and checked. */
    void stop()
    {
        stopped = true;
        if (sender != null)
        {
            sender.cancel(false);
            sender = null;
        }
    }

    // ---- answers ----

    @Override
    public void onBidResponse(final long requestId, final short decision, final short reason)
    {
        final int slot = (int)(requestId & MASK);
        if ((requestId & ~((1L << 32) - 1)) != idPrefix || sentAtNanos[slot] == 0 || slotRequestId[slot] != requestId)
        {
            unknownAnswers++;
            return;
        }
        final long now = clock.nanoTime();
        final long sentAt = sentAtNanos[slot];
        sentAtNanos[slot] = 0;
        outstanding--;
        tally.answers++;
        if (now >= clock.measureFromNanos() && now < clock.sendUntilNanos())
        {
            tally.measure(now - sentAt, reason);
        }
        if (decision == 1)
        {
            simulateExchange(requestId, slotCampaignId[slot], slotBidCpmMicros[slot]);
        }
        if (!options.openLoop() && !stopped)
        {
            if (now >= clock.sendUntilNanos() || sent >= clock.maxRequestsPerConnection())
            {
                stop();
            }
            else
            {
                sendRequest(now);
            }
        }
    }

    private void simulateExchange(final long requestId, final long campaignId, final long bidCpmMicros)
    {
        if (random.nextDouble() < options.noticeLossShare())
        {
            return;
        }
        if (random.nextDouble() < options.winRate())
        {
            final double share = options.clearingMinRatio() + random.nextDouble() * (1 - options.clearingMinRatio());
            tally.wins++;
            write(encoder.winNotice(scratch, 0, requestId, campaignId, Math.max(0, (long)(bidCpmMicros * share))));
        }
        else
        {
            tally.losses++;
            write(encoder.lossNotice(scratch, 0, requestId, campaignId));
        }
    }

    @Override
    public void onErrorMessage(final long requestId, final int code, final int templateId)
    {
        errorFrames++;
    }

    @Override
    public void onInvalidFrame(final ErrorCode code, final long requestId, final int templateId)
    {
        // counted by decode() when framing is lost; other codes mean a frame the server should not send
        if (code != ErrorCode.MALFORMED_FRAME)
        {
            invalidFrames++;
        }
    }

    @Override
    public void exceptionCaught(final ChannelHandlerContext ctx, final Throwable cause)
    {
        disconnected = true;
        ctx.close();
    }

}
