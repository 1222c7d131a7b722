package io.pacer.server;

import io.pacer.wire.FrameEncoder;
import io.pacer.wire.FrameListener;
import io.pacer.wire.FrameParser;
import io.pacer.wire.ErrorCode;
import io.pacer.wire.Reason;
import org.agrona.concurrent.UnsafeBuffer;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.util.BitSet;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.TimeUnit;

/**
 * A gateway that offers bids as fast as one socket takes them, without waiting for answers, for
 * a bounded time and count, and sends a WinNotice for every BID it gets back. It records every
 * answer by request id, so a test can check that each request was answered exactly once.
 */
final class FloodClient implements AutoCloseable
{
    static final long BID_CPM_MICROS = 2_000_000;
    static final long WIN_CPM_MICROS = 1_000_000;

    /** Each client's request ids are its own, as gateways' must be: notices are deduplicated by id. */
    private static final java.util.concurrent.atomic.AtomicLong INSTANCES = new java.util.concurrent.atomic.AtomicLong();

    private final Socket socket;
    private final long campaignId;
    private final long requestIdBase = INSTANCES.incrementAndGet() << 32;
    private final ConcurrentLinkedQueue<Long> winsOwed = new ConcurrentLinkedQueue<>();
    private final BitSet answered = new BitSet();
    private final long[] byReason = new long[8];
    private volatile long answers;
    private volatile long duplicates;
    private volatile long errors;
    private volatile long sent;
    private volatile boolean floodOver;
    private volatile long winsSent;
    private volatile IOException failure;

    FloodClient(final InetSocketAddress address, final long campaignId) throws IOException
    {
        this.campaignId = campaignId;
        socket = new Socket();
        socket.setTcpNoDelay(true);
        socket.connect(address, 5_000);
        socket.setSoTimeout(100);
    }

    /**
     * Floods for {@code millis} or {@code maxRequests}, whichever ends first, then waits (at most
     * 30 s) for every answer and sends the last wins.
     */
    void run(final long millis, final int maxRequests) throws Exception
    {
        final Thread reader = new Thread(this::readAnswers, "flood-reader");
        reader.start();
        final OutputStream out = socket.getOutputStream();
        final FrameEncoder encoder = new FrameEncoder();
        final UnsafeBuffer buffer = new UnsafeBuffer(new byte[64 * 1024]);
        final long end = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(millis);
        int next = 0;
        while (System.nanoTime() < end && next < maxRequests)
        {
            int length = 0;
            for (int i = 0; i < 512 && next < maxRequests; i++)
            {
                length += encoder.bidRequest(buffer, length, requestIdBase + next++, campaignId, BID_CPM_MICROS);
            }
            length = appendWins(encoder, buffer, length);
            out.write(buffer.byteArray(), 0, length);
            sent = next;
        }
        floodOver = true;
        final long answersDeadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while (answers < sent && System.nanoTime() < answersDeadline && failure == null)
        {
            final int length = appendWins(encoder, buffer, 0);
            out.write(buffer.byteArray(), 0, length);
            Thread.sleep(1);
        }
        reader.join(TimeUnit.SECONDS.toMillis(30));
        out.write(buffer.byteArray(), 0, appendWins(encoder, buffer, 0));
        out.flush();
        if (failure != null)
        {
            throw failure;
        }
    }

    private int appendWins(final FrameEncoder encoder, final UnsafeBuffer buffer, final int offset)
    {
        int length = offset;
        for (Long requestId; length + FrameEncoder.WIN_NOTICE_LENGTH <= buffer.capacity() &&
            (requestId = winsOwed.poll()) != null; )
        {
            length += encoder.winNotice(buffer, length, requestId, campaignId, WIN_CPM_MICROS);
            winsSent++;
        }
        return length;
    }

    private void readAnswers()
    {
        final byte[] receive = new byte[1 << 16];
        final UnsafeBuffer view = new UnsafeBuffer(receive);
        final FrameParser parser = new FrameParser(1 << 10);
        final FrameListener listener = new FrameListener()
        {
            @Override
            public void onBidResponse(final long requestId, final short decision, final short reason)
            {
                final int index = (int)(requestId - requestIdBase);
                if (answered.get(index))
                {
                    duplicates++;
                }
                answered.set(index);
                byReason[reason]++;
                if (decision == 1)
                {
                    winsOwed.add(requestId);
                }
                answers++;
            }

            @Override
            public void onErrorMessage(final long requestId, final int code, final int templateId)
            {
                errors++;
            }

            @Override
            public void onInvalidFrame(final ErrorCode code, final long requestId, final int templateId)
            {
                errors++;
            }
        };
        try
        {
            final InputStream in = socket.getInputStream();
            final long giveUp = System.nanoTime() + TimeUnit.SECONDS.toNanos(120);
            int received = 0;
            while (!(floodOver && answers >= sent) && System.nanoTime() < giveUp)
            {
                final int n;
                try
                {
                    n = in.read(receive, received, receive.length - received);
                }
                catch (final java.net.SocketTimeoutException nothingYet)
                {
                    continue;
                }
                if (n < 0)
                {
                    throw new IOException("closed by the server after " + answers + " answers");
                }
                received += n;
                final int consumed = parser.parse(view, 0, received, listener);
                System.arraycopy(receive, consumed, receive, 0, received - consumed);
                received -= consumed;
            }
        }
        catch (final IOException ex)
        {
            failure = ex;
        }
    }

    long sent()
    {
        return sent;
    }

    long answers()
    {
        return answers;
    }

    /** Request ids below {@link #sent()} that got at least one answer. */
    int distinctAnswered()
    {
        return answered.cardinality();
    }

    long duplicates()
    {
        return duplicates;
    }

    long errors()
    {
        return errors;
    }

    long answered(final Reason reason)
    {
        return byReason[reason.value()];
    }

    long winsSent()
    {
        return winsSent;
    }

    @Override
    public void close() throws IOException
    {
        socket.close();
    }
}
