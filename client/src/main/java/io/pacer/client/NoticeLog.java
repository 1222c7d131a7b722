package io.pacer.client;

/**
 * The notices written to one connection and not yet known to be read by the pacer, in write
 * order, each with how many bids had been written before it. Growable primitive arrays: no
 * object per notice.
 */
final class NoticeLog
{
    private int[] types = new int[256];
    private long[] requestIds = new long[256];
    private long[] campaignIds = new long[256];
    private long[] prices = new long[256];
    private long[] bidsBefore = new long[256];
    private int mask = 255;
    private long head;
    private long tail;

    void add(final int type, final long requestId, final long campaignId, final long price, final long bidsWrittenBefore)
    {
        if (tail - head == types.length)
        {
            grow();
        }
        final int slot = (int)(tail & mask);
        types[slot] = type;
        requestIds[slot] = requestId;
        campaignIds[slot] = campaignId;
        prices[slot] = price;
        bidsBefore[slot] = bidsWrittenBefore;
        tail++;
    }

    /** Forgets the notices written before the {@code bidIndex}-th bid; returns how many. */
    int removeWrittenBefore(final long bidIndex)
    {
        final long from = head;
        while (head < tail && bidsBefore[(int)(head & mask)] < bidIndex)
        {
            head++;
        }
        return (int)(head - from);
    }

    boolean isEmpty()
    {
        return head == tail;
    }

    long size()
    {
        return tail - head;
    }

    /** Hands every notice to the node, to be written again on a connection that is up; empties this log. */
    void moveTo(final NodeLink node)
    {
        for (; head < tail; head++)
        {
            final int slot = (int)(head & mask);
            node.waitForConnection(types[slot], requestIds[slot], campaignIds[slot], prices[slot], true);
        }
    }

    private void grow()
    {
        final int length = types.length * 2;
        final int[] t = new int[length];
        final long[] r = new long[length];
        final long[] c = new long[length];
        final long[] p = new long[length];
        final long[] b = new long[length];
        int i = 0;
        for (long seq = head; seq < tail; seq++, i++)
        {
            final int slot = (int)(seq & mask);
            t[i] = types[slot];
            r[i] = requestIds[slot];
            c[i] = campaignIds[slot];
            p[i] = prices[slot];
            b[i] = bidsBefore[slot];
        }
        types = t;
        requestIds = r;
        campaignIds = c;
        prices = p;
        bidsBefore = b;
        mask = length - 1;
        tail = tail - head;
        head = 0;
    }
}
