package io.pacer.cluster;

import io.aeron.BufferBuilder;
import io.aeron.cluster.RecordingLog;
import io.aeron.cluster.client.AeronCluster;
import io.aeron.cluster.codecs.MessageHeaderDecoder;
import io.aeron.cluster.codecs.SessionMessageHeaderDecoder;
import io.aeron.cluster.codecs.TimerEventDecoder;
import io.aeron.logbuffer.FrameDescriptor;
import io.aeron.protocol.DataHeaderFlyweight;
import org.agrona.DirectBuffer;
import org.agrona.concurrent.UnsafeBuffer;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.MappedByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

/**
 * Reads a stopped member's recorded log straight from its archive's segment files, offline: the
 * log recording named by the member's recording log, frame by frame (Aeron's data frames,
 * reassembled when fragmented), and hands over what a {@link PacerClusteredService} would see:
 * each session message's payload with its timestamp, and each timer event. No media driver or
 * archive runs; the files are only read.
 */
public final class ClusterLogReader
{
    /** What the log holds, in order. */
    public interface Handler
    {
        /** A client's message, as the service's {@code onSessionMessage} gets it. */
        void onSessionMessage(long timestamp, DirectBuffer buffer, int offset, int length);

        /** A cluster timer fired, as the service's {@code onTimerEvent} gets it. */
        void onTimerEvent(long correlationId, long timestamp);
    }

    private final MessageHeaderDecoder header = new MessageHeaderDecoder();
    private final SessionMessageHeaderDecoder sessionMessage = new SessionMessageHeaderDecoder();
    private final TimerEventDecoder timerEvent = new TimerEventDecoder();
    private final BufferBuilder fragments = new BufferBuilder();

    /**
     * Reads the log of the member whose directories are {@code memberDir}/consensus and
     * {@code memberDir}/archive ({@code pacer.cluster.dir}).
     *
     * @return the log's length in bytes
     * @throws IllegalStateException if the member has no log recording, or it no longer starts at 0
     */
    public long read(final Path memberDir, final Handler handler)
    {
        final long recordingId;
        try (RecordingLog recordingLog = new RecordingLog(memberDir.resolve("consensus").toFile(), false))
        {
            recordingId = recordingLog.findLastTermRecordingId();
        }
        if (recordingId < 0)
        {
            throw new IllegalStateException("no log recording in " + memberDir.resolve("consensus"));
        }
        final List<Path> segments = segments(memberDir.resolve("archive"), recordingId);
        if (segments.isEmpty() || basePosition(segments.get(0)) != 0)
        {
            throw new IllegalStateException("the log recording " + recordingId + " in " + memberDir.resolve("archive") +
                " does not start at position 0 (purged?): an audit replays it from its start");
        }
        long position = 0;
        for (final Path segment : segments)
        {
            if (basePosition(segment) != position)
            {
                break;
            }
            final long end = readSegment(segment, handler);
            position += end;
            if (end < size(segment))
            {
                break;
            }
        }
        return position;
    }

    private long readSegment(final Path segment, final Handler handler)
    {
        try (FileChannel channel = FileChannel.open(segment, StandardOpenOption.READ))
        {
            final MappedByteBuffer mapped = channel.map(FileChannel.MapMode.READ_ONLY, 0, channel.size());
            final UnsafeBuffer buffer = new UnsafeBuffer(mapped);
            int offset = 0;
            while (offset + DataHeaderFlyweight.HEADER_LENGTH <= buffer.capacity())
            {
                final int frameLength = buffer.getInt(offset + DataHeaderFlyweight.FRAME_LENGTH_FIELD_OFFSET,
                    java.nio.ByteOrder.LITTLE_ENDIAN);
                if (frameLength <= 0)
                {
                    break;
                }
                final int type = buffer.getShort(offset + DataHeaderFlyweight.TYPE_FIELD_OFFSET,
                    java.nio.ByteOrder.LITTLE_ENDIAN) & 0xFFFF;
                if (type == DataHeaderFlyweight.HDR_TYPE_DATA)
                {
                    final byte flags = buffer.getByte(offset + DataHeaderFlyweight.FLAGS_FIELD_OFFSET);
                    fragment(buffer, offset + DataHeaderFlyweight.HEADER_LENGTH,
                        frameLength - DataHeaderFlyweight.HEADER_LENGTH, flags, handler);
                }
                offset += org.agrona.BitUtil.align(frameLength, FrameDescriptor.FRAME_ALIGNMENT);
            }
            return offset;
        }
        catch (final IOException ex)
        {
            throw new UncheckedIOException("cannot read " + segment, ex);
        }
    }

    private void fragment(final DirectBuffer buffer, final int offset, final int length, final byte flags,
        final Handler handler)
    {
        final boolean begin = (flags & FrameDescriptor.BEGIN_FRAG_FLAG) != 0;
        final boolean end = (flags & FrameDescriptor.END_FRAG_FLAG) != 0;
        if (begin && end)
        {
            message(buffer, offset, length, handler);
            return;
        }
        if (begin)
        {
            fragments.reset();
        }
        fragments.append(buffer, offset, length);
        if (end)
        {
            message(fragments.buffer(), 0, fragments.limit(), handler);
        }
    }

    private void message(final DirectBuffer buffer, final int offset, final int length, final Handler handler)
    {
        if (length < MessageHeaderDecoder.ENCODED_LENGTH)
        {
            return;
        }
        header.wrap(buffer, offset);
        if (header.schemaId() != MessageHeaderDecoder.SCHEMA_ID)
        {
            return;
        }
        switch (header.templateId())
        {
            case SessionMessageHeaderDecoder.TEMPLATE_ID ->
            {
                sessionMessage.wrapAndApplyHeader(buffer, offset, header);
                handler.onSessionMessage(sessionMessage.timestamp(), buffer, offset + AeronCluster.SESSION_HEADER_LENGTH,
                    length - AeronCluster.SESSION_HEADER_LENGTH);
            }
            case TimerEventDecoder.TEMPLATE_ID ->
            {
                timerEvent.wrapAndApplyHeader(buffer, offset, header);
                handler.onTimerEvent(timerEvent.correlationId(), timerEvent.timestamp());
            }
            default ->
            {
                // session open and close, new leadership terms, cluster actions: nothing the pacing applies
            }
        }
    }

    private static List<Path> segments(final Path archiveDir, final long recordingId)
    {
        final String prefix = recordingId + "-";
        try (Stream<Path> files = Files.list(archiveDir))
        {
            final List<Path> segments = new ArrayList<>(files
                .filter(f -> f.getFileName().toString().startsWith(prefix) && f.getFileName().toString().endsWith(".rec"))
                .toList());
            segments.sort(java.util.Comparator.comparingLong(ClusterLogReader::basePosition));
            return segments;
        }
        catch (final IOException ex)
        {
            throw new UncheckedIOException("cannot list " + archiveDir, ex);
        }
    }

    private static long basePosition(final Path segment)
    {
        final String name = segment.getFileName().toString();
        return Long.parseLong(name.substring(name.indexOf('-') + 1, name.length() - ".rec".length()));
    }

    private static long size(final Path segment)
    {
        try
        {
            return Files.size(segment);
        }
        catch (final IOException ex)
        {
            throw new UncheckedIOException(ex);
        }
    }
}
