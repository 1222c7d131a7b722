package io.pacer.loadtest;

import io.pacer.wire.FrameEncoder;
import io.pacer.wire.FrameListener;
import io.pacer.wire.FrameParser;
import io.pacer.wire.ErrorCode;
import io.pacer.wire.Reason;
import org.agrona.concurrent.UnsafeBuffer;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A scripted stand-in for the pacer, one thread per connection: answers every bid with BID, and
 * can pause once, answer twice, or drop answers, to test the load generator's accounting.
 */
final class FakeGateway implements AutoCloseable
{
    enum Misbehaviour
    {
        NONE, DUPLICATE_EVERY_100TH, DROP_EVERY_100TH
    }

    private final ServerSocket server;
    private final long pauseAfterRequests;
    private final long pauseMillis;
    private final Misbehaviour misbehaviour;
    final AtomicLong requests = new AtomicLong();
    final AtomicLong notices = new AtomicLong();

    FakeGateway(final long pauseAfterRequests, final long pauseMillis, final Misbehaviour misbehaviour) throws IOException
    {
        this.server = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
        this.pauseAfterRequests = pauseAfterRequests;
        this.pauseMillis = pauseMillis;
        this.misbehaviour = misbehaviour;
        final Thread acceptor = new Thread(this::accept, "fake-gateway");
        acceptor.setDaemon(true);
        acceptor.start();
    }

    int port()
    {
        return server.getLocalPort();
    }

    private void accept()
    {
        while (!server.isClosed())
        {
            try
            {
                final Socket socket = server.accept();
                final Thread t = new Thread(() -> serve(socket), "fake-gateway-conn");
                t.setDaemon(true);
                t.start();
            }
            catch (final IOException closed)
            {
                return;
            }
        }
    }

    private void serve(final Socket socket)
    {
        final byte[] in = new byte[1 << 16];
        final UnsafeBuffer inView = new UnsafeBuffer(in);
        final UnsafeBuffer out = new UnsafeBuffer(new byte[1 << 20]);
        final FrameParser parser = new FrameParser(1024);
        final FrameEncoder encoder = new FrameEncoder();
        final int[] outLength = {0};
        final boolean[] paused = {false};
        final FrameListener listener = new FrameListener()
        {
            @Override
            public void onBidRequest(final long requestId, final long campaignId, final long bidCpmMicros)
            {
                final long n = requests.incrementAndGet();
                if (pauseMillis > 0 && !paused[0] && n >= pauseAfterRequests)
                {
                    paused[0] = true;
                    sleep(pauseMillis);
                }
                if (misbehaviour == Misbehaviour.DROP_EVERY_100TH && n % 100 == 0)
                {
                    return;
                }
                outLength[0] += encoder.bidResponse(out, outLength[0], requestId, Reason.NONE);
                if (misbehaviour == Misbehaviour.DUPLICATE_EVERY_100TH && n % 100 == 0)
                {
                    outLength[0] += encoder.bidResponse(out, outLength[0], requestId, Reason.NONE);
                }
            }

            @Override
            public void onWinNotice(final long requestId, final long campaignId, final long priceCpmMicros)
            {
                notices.incrementAndGet();
            }

            @Override
            public void onLossNotice(final long requestId, final long campaignId)
            {
                notices.incrementAndGet();
            }

            @Override
            public void onInvalidFrame(final ErrorCode code, final long requestId, final int templateId)
            {
                throw new IllegalStateException("load generator sent an invalid frame: " + code);
            }
        };
        try (socket; InputStream input = socket.getInputStream(); OutputStream output = socket.getOutputStream())
        {
            int length = 0;
            while (true)
            {
                final int n = input.read(in, length, in.length - length);
                if (n < 0)
                {
                    return;
                }
                length += n;
                final int consumed = parser.parse(inView, 0, length, listener);
                System.arraycopy(in, consumed, in, 0, length - consumed);
                length -= consumed;
                output.write(out.byteArray(), 0, outLength[0]);
                output.flush();
                outLength[0] = 0;
            }
        }
        catch (final IOException closed)
        {
            // the generator hung up
        }
    }

    private static void sleep(final long millis)
    {
        try
        {
            Thread.sleep(millis);
        }
        catch (final InterruptedException ex)
        {
            Thread.currentThread().interrupt();
        }
    }

    @Override
    public void close() throws IOException
    {
        server.close();
    }
}
