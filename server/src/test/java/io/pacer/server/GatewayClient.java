package io.pacer.server;

import io.pacer.wire.FrameEncoder;
import io.pacer.wire.FrameListener;
import io.pacer.wire.FrameParser;
import io.pacer.wire.ErrorCode;
import org.agrona.concurrent.UnsafeBuffer;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.util.ArrayList;
import java.util.List;

/** A blocking test client of the gateway protocol; answers come back as readable strings. */
final class GatewayClient implements AutoCloseable
{
    private final Socket socket;
    private final InputStream in;
    private final OutputStream out;
    private final FrameEncoder encoder = new FrameEncoder();
    private final UnsafeBuffer sendBuffer = new UnsafeBuffer(new byte[1 << 20]);
    private final byte[] receive = new byte[1 << 20];
    private final UnsafeBuffer receiveView = new UnsafeBuffer(receive);
    private final FrameParser parser = new FrameParser(1 << 16);
    private int received;
    private int sendLength;

    GatewayClient(final InetSocketAddress address) throws IOException
    {
        this(address, null);
    }

    /** Over TLS when {@code tls} is given (the handshake happens on first use). */
    GatewayClient(final InetSocketAddress address, final javax.net.ssl.SSLContext tls) throws IOException
    {
        this(address, tls, null);
    }

    /** From the local address {@code from} (e.g. 127.0.0.2, a second loopback source), if given. */
    GatewayClient(final InetSocketAddress address, final javax.net.ssl.SSLContext tls, final java.net.InetAddress from)
        throws IOException
    {
        final Socket plain = new Socket();
        plain.setTcpNoDelay(true);
        if (from != null)
        {
            plain.bind(new InetSocketAddress(from, 0));
        }
        plain.connect(address, 5_000);
        socket = tls == null ? plain :
            tls.getSocketFactory().createSocket(plain, address.getHostString(), address.getPort(), true);
        socket.setSoTimeout(10_000);
        in = socket.getInputStream();
        out = socket.getOutputStream();
    }

    /** The serial number of the server's certificate, over TLS (handshaking first if need be). */
    java.math.BigInteger peerSerial() throws IOException
    {
        final java.security.cert.Certificate leaf = ((javax.net.ssl.SSLSocket)socket).getSession().getPeerCertificates()[0];
        return ((java.security.cert.X509Certificate)leaf).getSerialNumber();
    }

    GatewayClient bid(final long requestId, final long campaignId, final long bidCpmMicros)
    {
        sendLength += encoder.bidRequest(sendBuffer, sendLength, requestId, campaignId, bidCpmMicros);
        return this;
    }

    GatewayClient win(final long requestId, final long campaignId, final long priceCpmMicros)
    {
        sendLength += encoder.winNotice(sendBuffer, sendLength, requestId, campaignId, priceCpmMicros);
        return this;
    }

    GatewayClient loss(final long requestId, final long campaignId)
    {
        sendLength += encoder.lossNotice(sendBuffer, sendLength, requestId, campaignId);
        return this;
    }

    GatewayClient raw(final byte[] bytes)
    {
        sendBuffer.putBytes(sendLength, bytes);
        sendLength += bytes.length;
        return this;
    }

    /** Sends everything queued so far in one write. */
    GatewayClient send() throws IOException
    {
        out.write(sendBuffer.byteArray(), 0, sendLength);
        out.flush();
        sendLength = 0;
        return this;
    }

    /** One bid, sent and answered. */
    String ask(final long requestId, final long campaignId, final long bidCpmMicros) throws IOException
    {
        return bid(requestId, campaignId, bidCpmMicros).send().read(1).get(0);
    }

    /**
     * Reads exactly {@code count} frames. Each is "BID id", "NO_BID id REASON" or
     * "ERROR id CODE template".
     */
    List<String> read(final int count) throws IOException
    {
        final List<String> frames = new ArrayList<>(count);
        final FrameListener listener = new FrameListener()
        {
            @Override
            public void onBidResponse(final long requestId, final short decision, final short reason)
            {
                frames.add(decision == 1 ? "BID " + requestId :
                    "NO_BID " + requestId + " " + io.pacer.wire.Reason.get(reason));
            }

            @Override
            public void onErrorMessage(final long requestId, final int code, final int templateId)
            {
                frames.add("ERROR " + requestId + " " + ErrorCode.get(code) + " " + templateId);
            }

            @Override
            public void onInvalidFrame(final ErrorCode code, final long requestId, final int templateId)
            {
                throw new AssertionError("server sent an invalid frame: " + code);
            }
        };
        while (frames.size() < count)
        {
            final int consumed = parser.parseOne(receiveView, 0, received, listener);
            if (consumed > 0)
            {
                System.arraycopy(receive, consumed, receive, 0, received - consumed);
                received -= consumed;
                continue;
            }
            final int n = in.read(receive, received, receive.length - received);
            if (n < 0)
            {
                throw new IOException("connection closed after " + frames.size() + " of " + count + " frames: " + frames);
            }
            received += n;
        }
        return frames;
    }

    /** True if the server closes the connection (after any frames still unread). */
    boolean isClosedByServer() throws IOException
    {
        try
        {
            while (true)
            {
                final int n = in.read(receive, received, receive.length - received);
                if (n < 0)
                {
                    return true;
                }
                received += n;
            }
        }
        catch (final SocketTimeoutException ex)
        {
            return false;
        }
        catch (final IOException reset)
        {
            return true;
        }
    }

    void timeoutMillis(final int millis) throws IOException
    {
        socket.setSoTimeout(millis);
    }

    @Override
    public void close() throws IOException
    {
        socket.close();
    }
}
