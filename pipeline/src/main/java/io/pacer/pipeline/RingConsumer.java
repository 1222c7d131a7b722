package io.pacer.pipeline;

import com.lmax.disruptor.EventPoller;

import java.util.List;

/**
 * What consumes the ring in place of the shards and the replier: cluster mode's client, which
 * sends each ring batch to the cluster's log and answers from what the log decided. Producers
 * publish exactly as they do to a {@link ThreadingMode#DEDICATED} pipeline.
 */
public interface RingConsumer extends AutoCloseable
{
    /** Builds the consumer around {@code poller}, which gates the ring (nothing is overwritten unread). */
    @FunctionalInterface
    interface Factory
    {
        RingConsumer create(EventPoller<PacerEvent> poller);
    }

    /** Starts consuming, on a thread of the consumer's own. */
    void start();

    /** What metrics may read of each shard, wherever the shards run. */
    List<ShardView> shards();

    /** Answers or fails everything published so far, then stops. */
    @Override
    void close();
}
