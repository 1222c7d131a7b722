package io.pacer.pipeline;

import io.pacer.wire.Reason;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/** A responder that records answers in arrival order and counts flushes. */
final class CollectingResponder implements Responder
{
    private final List<String> answers = new ArrayList<>();
    private int pending;
    private int flushes;

    @Override
    public synchronized boolean append(final long requestId, final Reason reason)
    {
        answers.add(requestId + ":" + reason);
        return pending++ == 0;
    }

    @Override
    public synchronized void withdrawBids()
    {
        for (int i = answers.size() - pending; i < answers.size(); i++)
        {
            answers.set(i, answers.get(i).replace(":NONE", ":OVERLOADED"));
        }
    }

    @Override
    public synchronized void flush()
    {
        pending = 0;
        flushes++;
        notifyAll();
    }

    @Override
    public synchronized void endOfStream()
    {
        answers.add("closed");
        notifyAll();
    }

    synchronized List<String> awaitAnswers(final int count) throws InterruptedException
    {
        final long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (answers.size() < count || pending > 0)
        {
            final long left = deadline - System.nanoTime();
            if (left <= 0)
            {
                throw new AssertionError("only " + answers.size() + " of " + count + " answers: " + answers);
            }
            TimeUnit.NANOSECONDS.timedWait(this, left);
        }
        return new ArrayList<>(answers);
    }

    synchronized int flushes()
    {
        return flushes;
    }
}
