package io.pacer.pipeline.journal;

import io.pacer.pipeline.GatewayIds;
import io.pacer.pipeline.PacerThreads;
import io.pacer.pipeline.journal.sbe.BidRecordEncoder;
import io.pacer.pipeline.journal.sbe.CampaignUpdateRecordEncoder;
import io.pacer.pipeline.journal.sbe.GatewayRecordEncoder;
import io.pacer.pipeline.journal.sbe.LossRecordEncoder;
import io.pacer.pipeline.journal.sbe.RecordHeaderDecoder;
import io.pacer.pipeline.journal.sbe.RecordHeaderEncoder;
import io.pacer.pipeline.journal.sbe.RecordType;
import io.pacer.pipeline.journal.sbe.SegmentHeaderEncoder;
import io.pacer.pipeline.journal.sbe.TickRecordEncoder;
import io.pacer.pipeline.journal.sbe.WinRecordEncoder;
import io.pacer.units.CpmMicros;
import io.pacer.units.DurationMillis;
import io.pacer.units.EpochMillis;

import io.pacer.model.CampaignDefinition;
import io.pacer.model.PacingPolicy;

import java.io.DataOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.channels.ClosedChannelException;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Arrays;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.zip.CRC32C;

import org.agrona.ExpandableArrayBuffer;
import org.agrona.concurrent.UnsafeBuffer;
import org.agrona.io.DirectBufferOutputStream;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Appends records to the current segment through one direct buffer: a ring batch becomes one
 * {@code write} (and, by policy, one {@code fsync}). Rolls to a new segment past
 * {@code segmentBytes}. Single-threaded: the journaler's thread only.
 *
 * Records are laid out by the codecs generated from the journal's SBE schema
 * ({@code pacer-journal.xml}); this class frames them (length, CRC32C) and owns the files.
 *
 * <p>Over 300 lines because segment rolling (with each segment's table of gateway identities),
 * the three fsync policies and failing closed belong to one writer thread's state.
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
    /** The same memory as {@link #buffer}, for the generated codecs (absolute offsets). */
    private final UnsafeBuffer view = new UnsafeBuffer(buffer);
    private final BidRecordEncoder bidRecord = new BidRecordEncoder();
    private final WinRecordEncoder winRecord = new WinRecordEncoder();
    private final LossRecordEncoder lossRecord = new LossRecordEncoder();
    private final CampaignUpdateRecordEncoder updateRecord = new CampaignUpdateRecordEncoder();
    private final TickRecordEncoder tickRecord = new TickRecordEncoder();
    private final GatewayRecordEncoder gatewayRecord = new GatewayRecordEncoder();
    /** Where {@link #define} writes a definition: the buffer, through {@code CampaignDefinition.write}. */
    private final DirectBufferOutputStream definitionBytes = new DirectBufferOutputStream();
    private final DataOutputStream definitionOut = new DataOutputStream(definitionBytes);
    private final GatewayIds gateways;
    /** Gateway ids below this have their names in the current segment (its header, or a record). */
    private int announced;
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
        this(dir, nextSequence, shards, policy, segmentBytes, fsync, fsyncIntervalMillis, new GatewayIds());
    }

    /** @param gateways the names of the gateway ids the records carry */
    public JournalWriter(
        final Path dir, final long nextSequence, final int shards, final PacingPolicy policy, final long segmentBytes,
        final FsyncPolicy fsync, final @DurationMillis long fsyncIntervalMillis, final GatewayIds gateways)
    {
        this.gateways = gateways;
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
        bid(epochMillis, requestId, campaignId, bidCpmMicros, reason, GatewayIds.ANONYMOUS);
    }

    /** A bid from the gateway identity {@code gateway}. */
    public void bid(final @EpochMillis long epochMillis, final long requestId, final long campaignId,
        final @CpmMicros long bidCpmMicros, final int reason, final int gateway)
    {
        announce(epochMillis, gateway);
        final int start = begin(BidRecordEncoder.BLOCK_LENGTH);
        stamp(bidRecord.wrap(view, payloadOffset(start)).header(), RecordType.BID_REQUEST, epochMillis);
        bidRecord.requestId(requestId).campaignId(campaignId).bidCpmMicros(bidCpmMicros).reason((short)reason)
            .gateway(gateway);
        end(start, BidRecordEncoder.BLOCK_LENGTH);
    }

    public void notice(final boolean win, final @EpochMillis long epochMillis, final long requestId,
        final long campaignId,
        final @CpmMicros long priceCpmMicros)
    {
        notice(win, epochMillis, requestId, campaignId, priceCpmMicros, GatewayIds.ANONYMOUS);
    }

    /** A win or loss notice from the gateway identity {@code gateway}. */
    public void notice(final boolean win, final @EpochMillis long epochMillis, final long requestId,
        final long campaignId, final @CpmMicros long priceCpmMicros, final int gateway)
    {
        announce(epochMillis, gateway);
        if (win)
        {
            final int start = begin(WinRecordEncoder.BLOCK_LENGTH);
            stamp(winRecord.wrap(view, payloadOffset(start)).header(), RecordType.WIN_NOTICE, epochMillis);
            winRecord.requestId(requestId).campaignId(campaignId).priceCpmMicros(priceCpmMicros).gateway(gateway);
            end(start, WinRecordEncoder.BLOCK_LENGTH);
        }
        else
        {
            final int start = begin(LossRecordEncoder.BLOCK_LENGTH);
            stamp(lossRecord.wrap(view, payloadOffset(start)).header(), RecordType.LOSS_NOTICE, epochMillis);
            lossRecord.requestId(requestId).campaignId(campaignId).gateway(gateway);
            end(start, LossRecordEncoder.BLOCK_LENGTH);
        }
    }

    /**
     * Before a record from {@code gateway}: the names of the ids the current segment does not
     * know yet, one record each (a rare event: the first message of a newly connected identity).
     */
    private void announce(final @EpochMillis long epochMillis, final int gateway)
    {
        while (announced <= gateway)
        {
            final int id = announced++;
            if (id == GatewayIds.ANONYMOUS)
            {
                continue;
            }
            final byte[] name = gateways.name(id).getBytes(StandardCharsets.UTF_8);
            final int length = GatewayRecordEncoder.BLOCK_LENGTH + GatewayRecordEncoder.nameHeaderLength() + name.length;
            final int start = begin(length);
            stamp(gatewayRecord.wrap(view, payloadOffset(start)).header(), RecordType.GATEWAY, epochMillis);
            gatewayRecord.id(id).putName(name, 0, name.length);
            end(start, gatewayRecord.encodedLength());
        }
    }

    /** A campaign created or replaced: its definition in binary, as a snapshot holds it. */
    public void define(final @EpochMillis long epochMillis, final CampaignDefinition definition)
    {
        final int most = definition.maxWrittenLength();
        final int start = begin(CampaignUpdateRecordEncoder.BLOCK_LENGTH + most);
        stamp(updateRecord.wrap(view, payloadOffset(start)).header(), RecordType.CAMPAIGN_UPDATE, epochMillis);
        definitionBytes.wrap(view, payloadOffset(start) + CampaignUpdateRecordEncoder.BLOCK_LENGTH, most);
        try
        {
            definition.write(definitionOut);
        }
        catch (final IOException ex)
        {
            // a buffer has no I/O to fail, and maxWrittenLength bounds what is written
            throw new IllegalStateException(ex);
        }
        end(start, CampaignUpdateRecordEncoder.BLOCK_LENGTH + definitionBytes.position());
    }

    public void tick(final @EpochMillis long epochMillis)
    {
        final int start = begin(TickRecordEncoder.BLOCK_LENGTH);
        stamp(tickRecord.wrap(view, payloadOffset(start)).header(), RecordType.TICK, epochMillis);
        end(start, TickRecordEncoder.BLOCK_LENGTH);
    }

    /** Makes room for a record of {@code payloadLength} bytes; returns where it starts. */
    private int begin(final int payloadLength)
    {
        if (buffer.remaining() < JournalFormat.RECORD_HEADER_LENGTH + payloadLength)
        {
            writeBuffer();
        }
        return buffer.position();
    }

    /** The header every record's payload starts with: the next journal sequence, time, type. */
    private void stamp(final RecordHeaderEncoder header, final RecordType type, final @EpochMillis long epochMillis)
    {
        header.sequence(nextSequence++).epochMillis(epochMillis).type(type);
    }

    private static int payloadOffset(final int start)
    {
        return start + JournalFormat.RECORD_HEADER_LENGTH;
    }

    /** Ends the record begun at {@code start}: frames its payload (length, CRC) and moves past it. */
    private void end(final int start, final int payloadLength)
    {
        final int payloadStart = payloadOffset(start);
        buffer.position(payloadStart + payloadLength);
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
        final long first = new RecordHeaderDecoder().wrap(view, JournalFormat.RECORD_HEADER_LENGTH).sequence();
        final Path file = dir.resolve(JournalFormat.segmentName(first));
        channel = FileChannel.open(file, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE);
        final ByteBuffer header = ByteBuffer.wrap(segmentHeader());
        segmentPosition = header.remaining();
        while (header.hasRemaining())
        {
            channel.write(header);
        }
        forceDirectory();
    }

    /**
     * A new segment's header: shards, the gateway identities known now (every id in the records
     * about to be written is among them), and the pacing tunables.
     */
    private byte[] segmentHeader()
    {
        final ExpandableArrayBuffer bytes = new ExpandableArrayBuffer(256);
        final SegmentHeaderEncoder header = new SegmentHeaderEncoder().wrap(bytes, 0)
            .magic(JournalFormat.MAGIC).version(JournalFormat.VERSION).shards(shards);
        final int known = gateways.size();
        final SegmentHeaderEncoder.GatewaysEncoder table = header.gatewaysCount(known - 1);
        for (int id = 1; id < known; id++)
        {
            table.next().id(id).name(gateways.name(id));
        }
        announced = known;
        final byte[] tunables = TunablesCodec.encode(policy);
        header.putTunables(tunables, 0, tunables.length);
        return Arrays.copyOf(bytes.byteArray(), header.encodedLength());
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
