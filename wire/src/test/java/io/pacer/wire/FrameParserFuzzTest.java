package io.pacer.wire;

import io.pacer.wire.ErrorCode;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.EnumSet;
import java.util.HexFormat;
import java.util.List;
import java.util.SplittableRandom;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.fail;

/**
 * The gateway's decoder against 200,000 random and mutated frames (fixed seed, so a failure is
 * reproducible; the failing input is printed in hex): no exception escapes, every outcome is a
 * decoded message or a protocol error whose Error message encodes and decodes back intact,
 * nothing follows a MALFORMED_FRAME, and the outcome does not depend on how the bytes are split
 * across reads.
 */
class FrameParserFuzzTest
{
    private static final int MAX_FRAME = 256;
    private static final int CASES = 200_000;
    private static final EnumSet<ErrorCode> PROTOCOL_ERRORS = EnumSet.of(ErrorCode.MALFORMED_FRAME,
        ErrorCode.UNKNOWN_SCHEMA, ErrorCode.UNKNOWN_TEMPLATE, ErrorCode.BLOCK_TOO_SHORT, ErrorCode.NOT_PERMITTED);

    private final FrameEncoder encoder = new FrameEncoder();
    private final UnsafeBuffer frameBuffer = new UnsafeBuffer(new byte[64]);
    private final FrameParser whole = new FrameParser(MAX_FRAME);
    private final FrameParser chunked = new FrameParser(MAX_FRAME);
    private final FrameParser errorReader = new FrameParser(MAX_FRAME);

    @Test
    void shouldAnswerEveryRandomOrMutatedFrameWithAMessageOrAProtocolError()
    {
        final SplittableRandom random = new SplittableRandom(0x5EED_F00DL);
        long frames = 0;
        long decoded = 0;
        long errors = 0;
        for (int i = 0; i < CASES; i++)
        {
            final Input input = nextInput(random);
            frames += input.frames;
            final Outcome outcome;
            try
            {
                outcome = check(input.bytes, random);
            }
            catch (final Throwable ex)
            {
                throw new AssertionError("case " + i + ": " + HexFormat.of().formatHex(input.bytes), ex);
            }
            if (input.clean)
            {
                assertThat(outcome.events).as("case %d, unmutated", i).isEqualTo(input.expected);
            }
            decoded += outcome.messages;
            errors += outcome.errors;
        }
        assertThat(frames).isGreaterThanOrEqualTo(100_000);
        // the generator reaches both sides of the decoder
        assertThat(decoded).isGreaterThan(CASES / 4);
        assertThat(errors).isGreaterThan(CASES / 4);
    }

    private record Outcome(List<String> events, long messages, long errors)
    {
    }

    private Outcome check(final byte[] bytes, final SplittableRandom random)
    {
        final GatewaySide all = new GatewaySide();
        final int consumed = whole.parse(new UnsafeBuffer(bytes), 0, bytes.length, all);
        assertThat(consumed).isBetween(FrameParser.FRAMING_LOST, bytes.length);

        final GatewaySide pieces = new GatewaySide();
        parseInRandomPieces(bytes, random, pieces);
        assertThat(pieces.events).as("split across reads").isEqualTo(all.events);

        long messages = 0;
        long errors = 0;
        for (int i = 0; i < all.events.size(); i++)
        {
            final String event = all.events.get(i);
            if (event.startsWith("invalid "))
            {
                errors++;
                final ErrorCode code = ErrorCode.valueOf(event.split(" ")[1]);
                assertThat(PROTOCOL_ERRORS).contains(code);
                if (code == ErrorCode.MALFORMED_FRAME)
                {
                    assertThat(i).as("nothing after MALFORMED_FRAME").isEqualTo(all.events.size() - 1);
                    assertThat(consumed).isEqualTo(FrameParser.FRAMING_LOST);
                }
                assertErrorMessageRoundTrips(code, all.requestIds.get(i), all.templateIds.get(i));
            }
            else
            {
                messages++;
            }
        }
        if (consumed >= 0)
        {
            // what is left is a partial frame, waiting for more bytes
            final GatewaySide rest = new GatewaySide();
            assertThat(whole.parse(new UnsafeBuffer(bytes), consumed, bytes.length - consumed, rest)).isZero();
            assertThat(rest.events).isEmpty();
        }
        return new Outcome(all.events, messages, errors);
    }

    /** Feeds the bytes as a stream in random reads, keeping the unconsumed tail as a decoder would. */
    private void parseInRandomPieces(final byte[] bytes, final SplittableRandom random, final GatewaySide listener)
    {
        byte[] pending = new byte[0];
        int offered = 0;
        while (offered < bytes.length)
        {
            final int piece = 1 + random.nextInt(Math.min(bytes.length - offered, 48));
            final byte[] joined = Arrays.copyOf(pending, pending.length + piece);
            System.arraycopy(bytes, offered, joined, pending.length, piece);
            offered += piece;
            final int consumed = chunked.parse(new UnsafeBuffer(joined), 0, joined.length, listener);
            if (consumed == FrameParser.FRAMING_LOST)
            {
                return;
            }
            pending = Arrays.copyOfRange(joined, consumed, joined.length);
        }
    }

    private void assertErrorMessageRoundTrips(final ErrorCode code, final long requestId, final int templateId)
    {
        final int length = encoder.error(frameBuffer, 0, requestId, code, templateId);
        final RecordingListener client = new RecordingListener();
        assertThat(errorReader.parse(frameBuffer, 0, length, client)).isEqualTo(length);
        assertThat(client.events).containsExactly("errorMessage " + requestId + " " + code.value() + " " + templateId);
    }

    // ---- inputs ----

    private record Input(byte[] bytes, int frames, boolean clean, List<String> expected)
    {
    }

    private Input nextInput(final SplittableRandom random)
    {
        final int kind = random.nextInt(10);
        if (kind == 0)
        {
            final byte[] noise = new byte[random.nextInt(80)];
            random.nextBytes(noise);
            return new Input(noise, 1, false, List.of());
        }
        final int count = 1 + random.nextInt(4);
        final List<String> expected = new ArrayList<>();
        byte[] bytes = new byte[0];
        for (int f = 0; f < count; f++)
        {
            final int length = validFrame(random, expected);
            final byte[] frame = new byte[length];
            frameBuffer.getBytes(0, frame);
            final byte[] joined = Arrays.copyOf(bytes, bytes.length + length);
            System.arraycopy(frame, 0, joined, bytes.length, length);
            bytes = joined;
        }
        if (kind <= 2)
        {
            return new Input(bytes, count, true, expected);
        }
        final int mutations = 1 + random.nextInt(3);
        for (int m = 0; m < mutations; m++)
        {
            bytes = mutate(bytes, random);
        }
        return new Input(bytes, count, false, List.of());
    }

    private int validFrame(final SplittableRandom random, final List<String> expected)
    {
        final long requestId = random.nextLong();
        final long campaignId = random.nextLong();
        final long cpm = random.nextLong();
        switch (random.nextInt(3))
        {
            case 0 ->
            {
                expected.add("bid " + requestId + " " + campaignId + " " + cpm);
                return encoder.bidRequest(frameBuffer, 0, requestId, campaignId, cpm);
            }
            case 1 ->
            {
                expected.add("win " + requestId + " " + campaignId + " " + cpm);
                return encoder.winNotice(frameBuffer, 0, requestId, campaignId, cpm);
            }
            default ->
            {
                expected.add("loss " + requestId + " " + campaignId);
                return encoder.lossNotice(frameBuffer, 0, requestId, campaignId);
            }
        }
    }

    private static byte[] mutate(final byte[] bytes, final SplittableRandom random)
    {
        if (bytes.length == 0)
        {
            return bytes;
        }
        final byte[] out = bytes.clone();
        final int at = random.nextInt(out.length);
        switch (random.nextInt(9))
        {
            case 0 -> out[at] ^= (byte)(1 << random.nextInt(8));
            case 1 -> out[at] = (byte)random.nextInt(256);
            case 2 -> // a header field: messageLength, encoding, blockLength, templateId, schemaId, version
                setShortAt(out, 4 + 2 * random.nextInt(5), random);
            case 3 -> setShortAt(out, 0, random); // messageLength high or low half
            case 4 -> setShortAt(out, 2, random);
            case 5 ->
            {
                return Arrays.copyOf(out, at); // truncated
            }
            case 6 ->
            {
                final byte[] noise = new byte[1 + random.nextInt(16)];
                random.nextBytes(noise);
                final byte[] joined = new byte[out.length + noise.length];
                System.arraycopy(out, 0, joined, 0, at);
                System.arraycopy(noise, 0, joined, at, noise.length);
                System.arraycopy(out, at, joined, at + noise.length, out.length - at);
                return joined;
            }
            case 7 ->
            {
                final int cut = Math.min(out.length - at, 1 + random.nextInt(16));
                final byte[] shorter = new byte[out.length - cut];
                System.arraycopy(out, 0, shorter, 0, at);
                System.arraycopy(out, at + cut, shorter, at, out.length - at - cut);
                return shorter;
            }
            default -> // a known template id with a header that no longer fits it
                setShortAt(out, 8, random);
        }
        return out;
    }

    private static final short[] INTERESTING = {0, 1, 2, 3, 4, 5, 6, 8, 14, 16, 24, 38, (short)0x7FFF, (short)0xFFFF};

    private static void setShortAt(final byte[] out, final int offset, final SplittableRandom random)
    {
        if (offset + 1 >= out.length)
        {
            return;
        }
        final short value = random.nextBoolean() ? INTERESTING[random.nextInt(INTERESTING.length)] :
            (short)random.nextInt(1 << 16);
        out[offset] = (byte)value;
        out[offset + 1] = (byte)(value >> 8);
    }

    /** What the gateway accepts (bids, wins, losses), recording the raw error fields too. */
    private static final class GatewaySide implements FrameListener
    {
        final List<String> events = new ArrayList<>();
        final List<Long> requestIds = new ArrayList<>();
        final List<Integer> templateIds = new ArrayList<>();

        private void add(final String event, final long requestId, final int templateId)
        {
            events.add(event);
            requestIds.add(requestId);
            templateIds.add(templateId);
        }

        @Override
        public void onBidRequest(final long requestId, final long campaignId, final long bidCpmMicros)
        {
            add("bid " + requestId + " " + campaignId + " " + bidCpmMicros, requestId, 0);
        }

        @Override
        public void onWinNotice(final long requestId, final long campaignId, final long priceCpmMicros)
        {
            add("win " + requestId + " " + campaignId + " " + priceCpmMicros, requestId, 0);
        }

        @Override
        public void onLossNotice(final long requestId, final long campaignId)
        {
            add("loss " + requestId + " " + campaignId, requestId, 0);
        }

        @Override
        public void onInvalidFrame(final ErrorCode code, final long requestId, final int templateId)
        {
            if (code == null)
            {
                fail("null error code");
            }
            add("invalid " + code + " " + requestId + " " + templateId, requestId, templateId);
        }
    }
}
