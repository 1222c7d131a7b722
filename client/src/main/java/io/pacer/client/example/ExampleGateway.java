package io.pacer.client.example;

import io.pacer.client.BidAnswer;
import io.pacer.client.ClientReason;
import io.pacer.client.PacerClient;

import java.io.PrintStream;
import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;

/**
 * The smallest gateway worth copying: one {@link PacerClient}, bids at a steady 5,000 a second
 * through the zero-allocation callback API, a simulated auction for each BID (one in three won at
 * half the bid, the rest lost), and a clean close that waits until every notice is known to be
 * read.
 *
 * <pre>java --add-opens java.base/jdk.internal.misc=ALL-UNNAMED -cp server/target/pacer.jar \
 *     io.pacer.client.example.ExampleGateway 127.0.0.1 9400 42 1000</pre>
 */
public final class ExampleGateway
{
    private ExampleGateway()
    {
    }

    public static void main(final String[] args) throws Exception
    {
        if (args.length != 4)
        {
            System.err.println("usage: ExampleGateway HOST PORT CAMPAIGN_ID BIDS");
            System.exit(2);
        }
        System.exit(run(args[0], Integer.parseInt(args[1]), Long.parseLong(args[2]), Integer.parseInt(args[3]), System.out));
    }

    /** Makes {@code bids} bids of 2.5 CPM for the campaign; prints what came back; 0 when all were answered. */
    public static int run(final String host, final int port, final long campaignId, final int bids, final PrintStream out)
        throws Exception
    {
        final CountDownLatch answered = new CountDownLatch(bids);
        final AtomicLong bid = new AtomicLong();
        final AtomicLong noBid = new AtomicLong();
        final AtomicLong failedSafe = new AtomicLong();
        final AtomicLong wins = new AtomicLong();
        final PacerClient[] client = new PacerClient[1];
        final PacerClient.Context context = new PacerClient.Context()
            .node(host, port)
            .deadline(Duration.ofMillis(5))   // an auction cannot wait longer: past it, NO_BID locally
            .clientId(1)                      // unique per gateway process sharing the pacer
            .answerHandler((correlationId, requestId, campaign, isBid, reason) ->
            {
                // on the client's event loop: do little, never block
                if (isBid)
                {
                    bid.incrementAndGet();
                    // the auction's outcome; each notice is delivered at least once, booked once
                    if (correlationId % 3 == 0)
                    {
                        wins.incrementAndGet();
                        client[0].win(requestId, campaign, 1_250_000);
                    }
                    else
                    {
                        client[0].loss(requestId, campaign);
                    }
                }
                else if (ClientReason.isFailSafe(reason))
                {
                    failedSafe.incrementAndGet();
                }
                else
                {
                    noBid.incrementAndGet();
                }
                answered.countDown();
            });
        try (PacerClient pacer = PacerClient.connect(context))
        {
            client[0] = pacer;
            if (!pacer.awaitConnected(Duration.ofSeconds(5)))
            {
                out.println("cannot reach the pacer at " + host + ":" + port);
                return 1;
            }
            final BidAnswer first = pacer.bid(campaignId, 2_500_000).get(1, TimeUnit.SECONDS);
            out.println("first bid, through a future: " + first);
            if (first.bid())
            {
                pacer.loss(first.requestId(), campaignId);
            }
            final long start = System.nanoTime();
            for (int i = 0; i < bids; i++)
            {
                // auctions arrive over time, here 5,000 a second
                final long due = start + i * 200_000L;
                while (System.nanoTime() < due)
                {
                    LockSupport.parkNanos(due - System.nanoTime());
                }
                if (pacer.bid(campaignId, 2_500_000, i) < 0)
                {
                    failedSafe.incrementAndGet(); // refused at once (not connected, full): a NO_BID
                    answered.countDown();
                }
            }
            final boolean all = answered.await(10, TimeUnit.SECONDS);
            final boolean noticesRead = pacer.awaitNoticesAcknowledged(Duration.ofSeconds(5));
            out.printf("bids %d: BID %d (won %d at 1.25 CPM), NO_BID %d, failed safe %d; notices read by the pacer: %s%n",
                bids, bid.get(), wins.get(), noBid.get(), failedSafe.get(), noticesRead);
            out.println(pacer.stats());
            return all && noticesRead ? 0 : 1;
        }
    }
}
