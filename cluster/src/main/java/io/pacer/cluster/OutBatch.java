package io.pacer.cluster;

import io.pacer.cluster.sbe.IngressBatchEncoder;
import io.pacer.cluster.sbe.MessageHeaderEncoder;
import io.pacer.pipeline.AdminCommand;
import io.pacer.pipeline.EventType;
import io.pacer.pipeline.Responder;
import org.agrona.DirectBuffer;
import org.agrona.ExpandableArrayBuffer;
import org.agrona.ExpandableDirectByteBuffer;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * One batch a node sends to the cluster's log and waits to hear back on: the events as they will
 * be encoded, and where each one's answer goes (a connection and request id, an admin command, a
 * stream to close). Reused: a node keeps {@link AnswerWindow#CAPACITY} of them in a ring.
 */
final class OutBatch
{
    /** Per event, encoded: type, request id, campaign id, price, definitions used. */
    private static final int EVENT_BYTES = 1 + 8 + 8 + 8 + 4;
    private static final int DEFINITION_OVERHEAD = 4;
    private static final int FIXED_BYTES = MessageHeaderEncoder.ENCODED_LENGTH + IngressBatchEncoder.BLOCK_LENGTH + 2 * 4;

    long seq;
    int count;
    boolean continues;
    boolean answered;
    /** When it was last offered ({@link System#nanoTime()}): a late answer has it sent again. */
    long sentAtNanos;
    private byte[] types = new byte[64];
    long[] requestIds = new long[64];
    private long[] campaignIds = new long[64];
    private long[] prices = new long[64];
    private int[] definitionCounts = new int[64];
    long[] ingressNanos = new long[64];
    Responder[] responders = new Responder[64];
    AdminCommand[] commands = new AdminCommand[64];
    final List<Responder> endOfStreams = new ArrayList<>();
    private final ExpandableArrayBuffer definitionBytes = new ExpandableArrayBuffer(1024);
    private int[] definitionOffsets = new int[16];
    private int definitionCount;
    private int definitionLength;
    private final ExpandableDirectByteBuffer message = new ExpandableDirectByteBuffer(4096);
    private int messageLength;
    private final MessageHeaderEncoder header = new MessageHeaderEncoder();
    private final IngressBatchEncoder encoder = new IngressBatchEncoder();

    /** Empties the batch for sequence {@code seq}. */
    void reset(final long seq)
    {
        this.seq = seq;
        Arrays.fill(responders, 0, count, null);
        Arrays.fill(commands, 0, count, null);
        count = 0;
        continues = false;
        answered = false;
        endOfStreams.clear();
        definitionCount = 0;
        definitionLength = 0;
        messageLength = 0;
    }

    /** The encoded size if one more event and {@code moreDefinitionBytes} were added. */
    int sizeWith(final int moreDefinitionBytes)
    {
        return FIXED_BYTES + (count + 1) * EVENT_BYTES + definitionLength + definitionCount * DEFINITION_OVERHEAD +
            moreDefinitionBytes + DEFINITION_OVERHEAD;
    }

    /**
     * Adds an event; returns its index. The log carries its type as the {@link EventType}
     * ordinal: every member of a cluster runs one version of the pacer (a rolling upgrade that
     * reordered the enum would have to drain the log first).
     */
    @SuppressWarnings("EnumOrdinal")
    int add(final EventType type, final long requestId, final long campaignId, final long price, final long nanos)
    {
        if (count == types.length)
        {
            grow();
        }
        final int i = count++;
        types[i] = (byte)type.ordinal();
        requestIds[i] = requestId;
        campaignIds[i] = campaignId;
        prices[i] = price;
        definitionCounts[i] = 0;
        ingressNanos[i] = nanos;
        return i;
    }

    /** Adds a definition's bytes ({@code CampaignDefinition.write}) to event {@code index}. */
    void addDefinition(final int index, final DirectBuffer bytes, final int length)
    {
        if (definitionCount == definitionOffsets.length)
        {
            definitionOffsets = Arrays.copyOf(definitionOffsets, definitionCount * 2);
        }
        definitionOffsets[definitionCount++] = definitionLength;
        definitionBytes.putBytes(definitionLength, bytes, 0, length);
        definitionLength += length;
        definitionCounts[index]++;
    }

    private void grow()
    {
        final int size = types.length * 2;
        types = Arrays.copyOf(types, size);
        requestIds = Arrays.copyOf(requestIds, size);
        campaignIds = Arrays.copyOf(campaignIds, size);
        prices = Arrays.copyOf(prices, size);
        definitionCounts = Arrays.copyOf(definitionCounts, size);
        ingressNanos = Arrays.copyOf(ingressNanos, size);
        responders = Arrays.copyOf(responders, size);
        commands = Arrays.copyOf(commands, size);
    }

    /** Encodes the batch as an {@code IngressBatch} from {@code origin}. */
    void encode(final int origin)
    {
        encoder.wrapAndApplyHeader(message, 0, header).origin(origin).batchSeq(seq).continues((short)(continues ? 1 : 0));
        final IngressBatchEncoder.EventsEncoder events = encoder.eventsCount(count);
        for (int i = 0; i < count; i++)
        {
            events.next().type(types[i]).requestId(requestIds[i]).campaignId(campaignIds[i]).cpmMicros(prices[i])
                .definitions(definitionCounts[i]);
        }
        final IngressBatchEncoder.DefinitionsEncoder definitions = encoder.definitionsCount(definitionCount);
        for (int j = 0; j < definitionCount; j++)
        {
            final int from = definitionOffsets[j];
            final int to = j + 1 < definitionCount ? definitionOffsets[j + 1] : definitionLength;
            definitions.next().putDefinition(definitionBytes, from, to - from);
        }
        messageLength = MessageHeaderEncoder.ENCODED_LENGTH + encoder.encodedLength();
    }

    /** Fails the admin commands this batch holds (the node is stopping). */
    void failCommands(final Throwable why)
    {
        for (int i = 0; i < count; i++)
        {
            if (commands[i] != null)
            {
                commands[i].completeExceptionally(why);
            }
        }
    }

    ExpandableDirectByteBuffer message()
    {
        return message;
    }

    int messageLength()
    {
        return messageLength;
    }

    /**
     * Batch events' count limit: the group's count is 16 bits. A guard only: 65,535 events of 29
     * bytes exceed the largest message budget (1 MiB), which seals a batch first.
     */
    boolean full()
    {
        return count == 65535;
    }
}
