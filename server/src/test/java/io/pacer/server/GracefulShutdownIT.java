package io.pacer.server;

import io.pacer.wire.FrameEncoder;
import io.pacer.wire.FrameListener;
import io.pacer.wire.FrameParser;
import io.pacer.pipeline.EventType;
import io.pacer.pipeline.journal.JournalReader;
import io.pacer.pipeline.journal.JournalReplay;
import io.pacer.wire.ErrorCode;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;

import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import static io.pacer.server.TestPacer.asap;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * SIGTERM to the real server process while a gateway has tens of thousands of requests in
 * flight: every request the server accepted is answered exactly once before the connection
 * closes, the process exits 0, and the journal holds exactly the answered requests (but those
 * shed at ingress because the ring was full, which never entered it) with the decisions the
 * gateway got, complete (no torn tail) and replaying without a mismatch.
 */
class GracefulShutdownIT
{

    @Test
    void shouldAnswerEverythingAcceptedAndCompleteTheJournalOnSigterm() throws Exception
    {
        final Path home = Files.createTempDirectory("pacer-shutdown");
        TestPacer.writeCampaigns(home.resolve("campaigns.json"), asap(1, 1_000_000_000), asap(2, 50_000));
        final int gateway = PacerProcess.freePort();
        final Process server = PacerProcess.start(home, gateway, PacerProcess.freePort());

        final Map<Long, String> answers = new HashMap<>();
        try (Socket socket = new Socket())
        {
            socket.connect(new InetSocketAddress("127.0.0.1", gateway), 5_000);
            socket.setSoTimeout(30_000);
            final OutputStream out = socket.getOutputStream();
            final CompletableFuture<Void> writer = CompletableFuture.runAsync(() -> sendBids(out, 200_000));
            final InputStream in = socket.getInputStream();
            final byte[] receive = new byte[1 << 16];
            final UnsafeBuffer view = new UnsafeBuffer(receive);
            final FrameParser parser = new FrameParser(1024);
            final int[] duplicates = new int[1];
            final FrameListener listener = new FrameListener()
            {
                @Override
                public void onBidResponse(final long requestId, final short decision, final short reason)
                {
                    if (answers.put(requestId, decision == 1 ? "BID" : "NO_BID " + reason) != null)
                    {
                        duplicates[0]++;
                    }
                }

                @Override
                public void onInvalidFrame(final ErrorCode code, final long requestId, final int templateId)
                {
                    throw new AssertionError(code.toString());
                }
            };
            int received = 0;
            boolean signalled = false;
            while (true)
            {
                final int n = in.read(receive, received, receive.length - received);
                if (n < 0)
                {
                    break;
                }
                received += n;
                final int consumed = parser.parse(view, 0, received, listener);
                System.arraycopy(receive, consumed, receive, 0, received - consumed);
                received -= consumed;
                if (!signalled && answers.size() >= 5_000)
                {
                    server.destroy(); // SIGTERM, with requests still in flight
                    signalled = true;
                }
            }
            assertThat(signalled).isTrue();
            assertThat(duplicates[0]).isZero();
            writer.handle((ok, closed) -> null).get(30, TimeUnit.SECONDS);
        }
        assertThat(server.waitFor(60, TimeUnit.SECONDS)).isTrue();
        assertThat(server.exitValue()).isZero();
        System.out.printf("graceful shutdown: %d requests answered before the close%n", answers.size());
        assertThat(answers.size()).as("some were in flight at the signal").isGreaterThan(5_000);

        final Map<Long, String> journaled = new HashMap<>();
        final JournalReader reader = new JournalReader(home.resolve("data/journal"));
        final JournalReplay replay = JournalReplay.ofJournal(reader, (record, replayed, shard) ->
        {
            if (record.type() == EventType.BID_REQUEST)
            {
                journaled.put(record.requestId(), record.reason() == 0 ? "BID" : "NO_BID " + record.reason());
            }
        });
        assertThat(reader.tornTailOffset()).as("no torn tail").isEqualTo(-1);
        assertThat(replay.mismatches()).isZero();
        // every decision the gateway got is the journaled one; only bids shed at ingress (ring
        // full, never in the ring) are missing from the journal; nothing journaled went unanswered
        long differing = 0;
        long unjournaledNotShed = 0;
        for (final Map.Entry<Long, String> answer : answers.entrySet())
        {
            final String recorded = journaled.get(answer.getKey());
            if (recorded == null)
            {
                unjournaledNotShed += answer.getValue().equals("NO_BID 6") ? 0 : 1;
            }
            else if (!recorded.equals(answer.getValue()))
            {
                differing++;
            }
        }
        assertThat(differing).as("answers differing from the journal").isZero();
        assertThat(unjournaledNotShed).as("decided answers missing from the journal").isZero();
        final long unanswered = journaled.keySet().stream().filter(id -> !answers.containsKey(id)).count();
        assertThat(unanswered).as("journaled requests the gateway never got an answer for").isZero();
        TestPacer.deleteTree(home);
    }

    /** Pipelined bids, alternately for the two campaigns, until done or the server closes. */
    private static void sendBids(final OutputStream out, final int count)
    {
        final FrameEncoder encoder = new FrameEncoder();
        final UnsafeBuffer buffer = new UnsafeBuffer(new byte[FrameEncoder.BID_REQUEST_LENGTH * 1000]);
        try
        {
            for (int id = 0; id < count; )
            {
                int length = 0;
                for (int i = 0; i < 1000; i++, id++)
                {
                    length += encoder.bidRequest(buffer, length, id, 1 + id % 2, 2_000);
                }
                out.write(buffer.byteArray(), 0, length);
            }
        }
        catch (final java.io.IOException closed)
        {
            // the server stopped accepting: expected
        }
    }
}
