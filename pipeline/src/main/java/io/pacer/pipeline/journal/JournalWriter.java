package io.pacer.pipeline.journal;

import io.pacer.pipeline.EventType;
import io.pacer.pipeline.PacerThreads;
import io.pacer.units.CpmMicros;
import io.pacer.units.DurationMillis;
import io.pacer.units.EpochMillis;

import io.pacer.model.PacingPolicy;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.channels.ClosedChannelException;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.zip.CRC32C;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Appends records to the current segment through one direct buffer: a ring batch becomes one
 * {@code write} (and, by policy, one {@code fsync}). Rolls to a new segment past
 * {@code segmentBytes}. Single-threaded: the journaler's thread only.
 *
 * <p>Over 300 lines because segment rolling, the three fsync policies and failing closed belong to one
 * writer thread's state; still to do (issue #13): the record layout generated from an SBE schema.
 */
public final class JournalWriter implements AutoCloseable
{
    /** When the journal forces its writes to the device. */
    public enum FsyncPolicy
    {
        /** Never force; the OS writes back when it likes. A machine crash loses what it had not. */
        NEVER,
        /**
         * Force every {@code fsyncIntervalMillis} from a background thread: the pipeline never
         * waits for the device; a machine crash loses at most that interval of answered traffic.
         */
        PERIODIC,
        /** Force at the end of every batch, before its answers leave. */
        BATCH
    }

    private final Path dir;
    private final int shards;
    private final PacingPolicy policy;
    private final long segmentBytes;
    private final FsyncPolicy fsync;
    private static final Logger LOG = LoggerFactory.getLogger(JournalWriter.class);
    private final ByteBuffer buffer = ByteBuffer.allocateDirect(4 << 20).order(JournalFormat.ORDER);
    private final ByteBuffer crcView = buffer.duplicate();
    private final CRC32C crc = new CRC32C();
    private volatile FileChannel channel;
    private final ScheduledExecutorService fsyncThread;
    private long segmentPosition;
    private long nextSequence;
    private long bytesWritten;
    private volatile long fsyncs;
    private volatile long fsyncFailures;

    public JournalWriter(
        final Path dir, final long nextSequence, final int shards, final PacingPolicy policy, final long segmentBytes,
        final FsyncPolicy fsync, final @DurationMillis long fsyncIntervalMillis)
    {
        this.dir = dir;
        this.nextSequence = nextSequence;
        this.shards = shards;
        this.policy = policy;
        this.segmentBytes = segmentBytes;
        this.fsync = fsync;
        if (fsync == FsyncPolicy.PERIODIC)
        {
            fsyncThread = Executors.newSingleThreadScheduledExecutor(PacerThreads.factory("pacer-journal-fsync"));
            fsyncThread.scheduleWithFixedDelay(this::forceInBackground, fsyncIntervalMillis, fsyncIntervalMillis,
                TimeUnit.MILLISECONDS);
        }
        else
        {
            fsyncThread = null;
        }
    }

    private void forceInBackground()
    {
        try
        {
            forceChannel();
        }
        catch (final ClosedChannelException rolled)
        {
            // rolled or closed meanwhile: roll() and close() force on their own
        }
        catch (final IOException ex)
        {
            fsyncFailures++;
            LOG.error("JOURNAL FSYNC FAILED in {}: {}", dir, ex.toString());
        }
    }

    public void bid(final @EpochMillis long epochMillis, final long requestId, final long campaignId,
        final @CpmMicros long bidCpmMicros,
        final int reason)
    {
        final int start = begin(EventType.BID_REQUEST.journalCode(), epochMillis, 25);
        buffer.putLong(requestId).putLong(campaignId).putLong(bidCpmMicros).put((byte)reason);
        end(start);
    }

    public void notice(final boolean win, final @EpochMillis long epochMillis, final long requestId,
        final long campaignId,
        final @CpmMicros long priceCpmMicros)
    {
        final int start = begin(win ? EventType.WIN_NOTICE.journalCode() : EventType.LOSS_NOTICE.journalCode(), epochMillis, win ? 24 : 16);
        buffer.putLong(requestId).putLong(campaignId);
        if (win)
        {
            buffer.putLong(priceCpmMicros);
        }
        end(start);
    }

    public void define(final @EpochMillis long epochMillis, final String definitionJson)
    {
        final byte[] json = definitionJson.getBytes(StandardCharsets.UTF_8);
        final int start = begin(EventType.CAMPAIGN_UPDATE.journalCode(), epochMillis, json.length);
        buffer.put(json);
        end(start);
    }

    public void tick(final @EpochMillis long epochMillis)
    {
        end(begin(EventType.TICK.journalCode(), epochMillis, 0));
    }

    private int begin(final byte type, final @EpochMillis long epochMillis, final int bodyLength)
    {
        if (buffer.remaining() < JournalFormat.RECORD_HEADER_LENGTH + JournalFormat.PAYLOAD_HEADER_LENGTH + bodyLength)
        {
            writeBuffer();
        }
        final int start = buffer.position();
        buffer.position(start + JournalFormat.RECORD_HEADER_LENGTH);
        buffer.putLong(nextSequence++).putLong(epochMillis).put(type);
        return start;
    }

    private void end(final int start)
    {
        final int payloadStart = start + JournalFormat.RECORD_HEADER_LENGTH;
        final int payloadLength = buffer.position() - payloadStart;
        crc.reset();
        crcView.limit(payloadStart + payloadLength).position(payloadStart);
        crc.update(crcView);
        buffer.putInt(start, payloadLength);
        buffer.putInt(start + 4, (int)crc.getValue());
    }

    /**
     * Writes what the batch appended (one write), and under the BATCH policy forces it.
     *
     * @throws UncheckedIOException if the write or the fsync fails, or if a background fsync has
     *         failed since: either way the journal can no longer promise what it holds
     */
    public void endOfBatch()
    {
        writeBuffer();
        if (fsync == FsyncPolicy.BATCH)
        {
            force();
        }
        if (fsyncFailures > 0)
        {
            throw new UncheckedIOException(new IOException(
                "a background fsync of the journal in " + dir + " failed: what it covered may not be on disk"));
        }
    }

    private void writeBuffer()
    {
        if (buffer.position() == 0)
        {
            return;
        }
        try
        {
            if (channel == null || segmentPosition >= segmentBytes)
            {
                roll();
            }
            buffer.flip();
            while (buffer.hasRemaining())
            {
                segmentPosition += channel.write(buffer);
            }
            bytesWritten += buffer.limit();
            buffer.clear();
        }
        catch (final IOException ex)
        {
            buffer.clear();
            throw new UncheckedIOException("journal write failed in " + dir, ex);
        }
    }

    private void roll() throws IOException
    {
        if (channel != null)
        {
            channel.force(true);
            channel.close();
            channel = null;
        }
        // the first record in the buffer carries the segment's first sequence
        final long first = buffer.getLong(JournalFormat.RECORD_HEADER_LENGTH);
        final Path file = dir.resolve(JournalFormat.segmentName(first));
        channel = FileChannel.open(file, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE);
        final byte[] tunables = TunablesCodec.encode(policy);
        final ByteBuffer header = ByteBuffer.allocate(JournalFormat.TUNABLES_OFFSET + tunables.length)
            .order(JournalFormat.ORDER)
            .putInt(JournalFormat.MAGIC).putInt(JournalFormat.VERSION).putInt(shards).put(tunables).flip();
        segmentPosition = header.remaining();
        while (header.hasRemaining())
        {
            channel.write(header);
        }
        forceDirectory();
    }

    private void forceDirectory()
    {
        try (FileChannel directory = FileChannel.open(dir, StandardOpenOption.READ))
        {
            directory.force(true);
        }
        catch (final IOException ignored)
        {
            // not every file system lets a directory be forced; the file itself is
        }
    }

    private void force()
    {
        try
        {
            forceChannel();
        }
        catch (final IOException ex)
        {
            throw new UncheckedIOException("journal fsync failed in " + dir, ex);
        }
    }

    /** Forces the current segment, if any; the replier's thread or the background fsync's. */
    private void forceChannel() throws IOException
    {
        final FileChannel current = channel;
        if (current != null)
        {
            current.force(false);
            fsyncs++;
        }
    }

    public long nextSequence()
    {
        return nextSequence;
    }

    /** Where numbering resumes after recovery; before the first record only. */
    public void resumeAt(final long sequence)
    {
        nextSequence = sequence;
    }

    public long bytesWritten()
    {
        return bytesWritten;
    }

    public long fsyncs()
    {
        return fsyncs;
    }

    /** Failed background fsyncs (each logged). */
    public long fsyncFailures()
    {
        return fsyncFailures;
    }

    /** Writes and forces what is buffered, and closes the segment. */
    @Override
    public void close()
    {
        if (fsyncThread != null)
        {
            // never interrupt it: an interrupted FileChannel closes itself
            fsyncThread.shutdown();
            try
            {
                fsyncThread.awaitTermination(10, TimeUnit.SECONDS);
            }
            catch (final InterruptedException ex)
            {
                Thread.currentThread().interrupt();
            }
        }
        writeBuffer();
        force();
        try
        {
            if (channel != null)
            {
                channel.close();
            }
        }
        catch (final IOException ex)
        {
            throw new UncheckedIOException(ex);
        }
    }

}
