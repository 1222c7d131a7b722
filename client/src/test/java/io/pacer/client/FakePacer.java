package io.pacer.client;

import io.pacer.wire.ErrorCode;
import io.pacer.wire.FrameEncoder;
import io.pacer.wire.FrameListener;
import io.pacer.wire.FrameParser;
import io.pacer.wire.Reason;
import org.agrona.concurrent.UnsafeBuffer;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.LongPredicate;

/**
 * A pacer stand-in on loopback, with blocking sockets: it records every frame it reads, answers
 * bids (BID unless told otherwise), and can stall (hold every answer until resumed) or drop its
 * connections, which the real server cannot be made to do on cue.
 */
final class FakePacer implements AutoCloseable
{
    /** A frame the fake read: type 1 bid, 3 win, 4 loss; the connection is the client's port. */
    record Received(int type, long requestId, long campaignId, long value, int connection)
    {
    }

    private final ServerSocket server;
    private final Thread acceptor;
    private final List<Socket> sockets = new CopyOnWriteArrayList<>();
    final ConcurrentLinkedQueue<Received> received = new ConcurrentLinkedQueue<>();
    private record Held(OutputStream out, long requestId, Reason reason)
    {
    }

    private final ConcurrentLinkedQueue<Held> held = new ConcurrentLinkedQueue<>();
    private volatile boolean stalled;
    private volatile boolean answering = true;
    private volatile LongPredicate bidFor = campaignId -> true;
    private volatile LongPredicate outsideIds = campaignId -> false;
    private volatile boolean overloadProbes;

    FakePacer() throws IOException
    {
        server = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
        acceptor = new Thread(this::accept, "fake-pacer-accept");
        acceptor.setDaemon(true);
        acceptor.start();
    }

    int port()
    {
        return server.getLocalPort();
    }

    /** Holds every answer from now until {@link #resume()}. */
    void stall()
    {
        stalled = true;
    }

    /** Answers everything held, then answers at once again. */
    void resume()
    {
        stalled = false;
        flushHeld();
    }

    /** Reads, but never answers (until told to again). */
    void answering(final boolean answer)
    {
        answering = answer;
    }

    /** Which campaigns get BID (the rest get NO_BID PACING). */
    void bidFor(final LongPredicate predicate)
    {
        bidFor = predicate;
    }

    /**
     * Which campaigns are outside this gateway's ids: a priced bid for one is answered NO_BID
     * UNKNOWN_CAMPAIGN, as a pacer with permissions answers it, before reading on.
     */
    void outsideIds(final LongPredicate predicate)
    {
        outsideIds = predicate;
    }

    /** Answers bids of no price (the client's probes) OVERLOADED, as a full ring would. */
    void overloadProbes(final boolean overload)
    {
        overloadProbes = overload;
    }

    /** Closes every connection, as a crashed or restarted node does. */
    void dropConnections() throws IOException
    {
        for (final Socket s : sockets)
        {
            s.close();
        }
        sockets.clear();
    }

    int connections()
    {
        return sockets.size();
    }

    List<Received> received(final int type)
    {
        final List<Received> list = new ArrayList<>();
        for (final Received r : received)
        {
            if (r.type() == type)
            {
                list.add(r);
            }
        }
        return list;
    }

    private void accept()
    {
        while (!server.isClosed())
        {
            try
            {
                final Socket socket = server.accept();
                socket.setTcpNoDelay(true);
                sockets.add(socket);
                final Thread reader = new Thread(() -> serve(socket), "fake-pacer-conn");
                reader.setDaemon(true);
                reader.start();
            }
            catch (final IOException ex)
            {
                return;
            }
        }
    }

    private void serve(final Socket socket)
    {
        final byte[] bytes = new byte[1 << 16];
        final UnsafeBuffer view = new UnsafeBuffer(bytes);
        final FrameParser parser = new FrameParser(1 << 16);
        final FrameEncoder encoder = new FrameEncoder();
        final UnsafeBuffer answer = new UnsafeBuffer(new byte[FrameEncoder.BID_RESPONSE_LENGTH]);
        int length = 0;
        try (InputStream in = socket.getInputStream(); OutputStream out = socket.getOutputStream())
        {
            final FrameListener listener = new FrameListener()
            {
                @Override
                public void onBidRequest(final long requestId, final long campaignId, final long bidCpmMicros)
                {
                    received.add(new Received(1, requestId, campaignId, bidCpmMicros, socket.getPort()));
                    if (!answering)
                    {
                        return;
                    }
                    final Reason reason = bidCpmMicros <= 0 ? (overloadProbes ? Reason.OVERLOADED : Reason.INVALID_REQUEST) :
                        outsideIds.test(campaignId) ? Reason.UNKNOWN_CAMPAIGN :
                        bidFor.test(campaignId) ? Reason.NONE : Reason.PACING;
                    if (stalled)
                    {
                        held.add(new Held(out, requestId, reason));
                        return;
                    }
                    encoder.bidResponse(answer, 0, requestId, reason);
                    write(out, answer.byteArray(), FrameEncoder.BID_RESPONSE_LENGTH);
                }

                @Override
                public void onWinNotice(final long requestId, final long campaignId, final long priceCpmMicros)
                {
                    received.add(new Received(3, requestId, campaignId, priceCpmMicros, socket.getPort()));
                }

                @Override
                public void onLossNotice(final long requestId, final long campaignId)
                {
                    received.add(new Received(4, requestId, campaignId, 0, socket.getPort()));
                }

                @Override
                public void onInvalidFrame(final ErrorCode code, final long requestId, final int templateId)
                {
                    throw new IllegalStateException("the client sent a bad frame: " + code);
                }
            };
            int n;
            while ((n = in.read(bytes, length, bytes.length - length)) > 0)
            {
                length += n;
                final int consumed = parser.parse(view, 0, length, listener);
                System.arraycopy(bytes, consumed, bytes, 0, length - consumed);
                length -= consumed;
            }
        }
        catch (final IOException | RuntimeException ex)
        {
            // dropped: the test decided so, or the client closed
        }
        finally
        {
            sockets.remove(socket);
        }
    }

    private void flushHeld()
    {
        final FrameEncoder encoder = new FrameEncoder();
        final UnsafeBuffer answer = new UnsafeBuffer(new byte[FrameEncoder.BID_RESPONSE_LENGTH]);
        Held h;
        while ((h = held.poll()) != null)
        {
            encoder.bidResponse(answer, 0, h.requestId(), h.reason());
            try
            {
                write(h.out(), answer.byteArray(), FrameEncoder.BID_RESPONSE_LENGTH);
            }
            catch (final RuntimeException ex)
            {
                // that connection is gone
            }
        }
    }

    private static void write(final OutputStream out, final byte[] bytes, final int length)
    {
        synchronized (out)
        {
            try
            {
                out.write(bytes, 0, length);
                out.flush();
            }
            catch (final IOException ex)
            {
                throw new java.io.UncheckedIOException(ex);
            }
        }
    }

    @Override
    public void close() throws IOException
    {
        server.close();
        dropConnections();
    }
}
