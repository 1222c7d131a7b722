package io.pacer.server;

import io.pacer.wire.FrameEncoder;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.nio.ByteOrder;
import java.util.HexFormat;
import java.util.Map;

import static io.pacer.server.TestPacer.asap;
import static org.assertj.core.api.Assertions.assertThat;

/** Every error code of protocol.md, with the connection behaviour it prescribes. */
class ProtocolErrorIntegrationTest
{
    private static TestPacer pacer;

    @BeforeAll
    static void startPacer() throws Exception
    {
        pacer = TestPacer.start(Map.of("pacer.gateway.max-frame-bytes", 256), asap(1, 1_000_000));
    }

    @AfterAll
    static void stopPacer() throws Exception
    {
        pacer.close();
    }

    private static byte[] bidRequest(final long requestId)
    {
        final UnsafeBuffer buffer = new UnsafeBuffer(new byte[FrameEncoder.BID_REQUEST_LENGTH]);
        new FrameEncoder().bidRequest(buffer, 0, requestId, 1, 1_000);
        return buffer.byteArray();
    }

    private static void assertErrorThenClose(final byte[] frame, final String expectedError) throws Exception
    {
        try (GatewayClient client = pacer.client())
        {
            assertThat(client.raw(frame).send().read(1)).containsExactly(expectedError);
            assertThat(client.isClosedByServer()).isTrue();
        }
    }

    private static void assertErrorThenCarryOn(final byte[] frame, final String expectedError) throws Exception
    {
        try (GatewayClient client = pacer.client())
        {
            client.raw(frame).bid(99, 1, 1_000).send();
            assertThat(client.read(2)).containsExactlyInAnyOrder(expectedError, "BID 99");
        }
    }

    @Test
    void shouldSendMalformedFrameAndCloseWhenLengthIsBelowTheHeader() throws Exception
    {
        assertErrorThenClose(HexFormat.of().parseHex("0000000DEB50180001000100"), "ERROR 0 MALFORMED_FRAME 0");
    }

    @Test
    void shouldSendMalformedFrameAndCloseWhenFrameIsAboveTheConfiguredMaximum() throws Exception
    {
        assertErrorThenClose(HexFormat.of().parseHex("00000101EB50180001000100"), "ERROR 0 MALFORMED_FRAME 0");
    }

    @Test
    void shouldSendMalformedFrameAndCloseOnWrongEncodingType() throws Exception
    {
        final byte[] frame = bidRequest(5);
        frame[4] = 0x12;
        assertErrorThenClose(frame, "ERROR 0 MALFORMED_FRAME 0");
    }

    @Test
    void shouldSkipFrameOfUnknownSchemaAndKeepTheConnection() throws Exception
    {
        final byte[] frame = bidRequest(5);
        new UnsafeBuffer(frame).putShort(10, (short)9, ByteOrder.LITTLE_ENDIAN);
        assertErrorThenCarryOn(frame, "ERROR 0 UNKNOWN_SCHEMA 1");
    }

    @Test
    void shouldSkipFrameOfUnknownTemplateAndKeepTheConnection() throws Exception
    {
        final byte[] frame = bidRequest(5);
        new UnsafeBuffer(frame).putShort(8, (short)42, ByteOrder.LITTLE_ENDIAN);
        assertErrorThenCarryOn(frame, "ERROR 0 UNKNOWN_TEMPLATE 42");
    }

    @Test
    void shouldSkipFrameWhoseBlockIsTooShortAndKeepTheConnection() throws Exception
    {
        final byte[] frame = bidRequest(5);
        new UnsafeBuffer(frame).putShort(6, (short)8, ByteOrder.LITTLE_ENDIAN);
        assertErrorThenCarryOn(frame, "ERROR 5 BLOCK_TOO_SHORT 1");
    }

    @Test
    void shouldRefuseABidResponseFromAGatewayAsNotPermitted() throws Exception
    {
        final UnsafeBuffer buffer = new UnsafeBuffer(new byte[FrameEncoder.BID_RESPONSE_LENGTH]);
        new FrameEncoder().bidResponse(buffer, 0, 77, io.pacer.wire.Reason.NONE);
        assertErrorThenCarryOn(buffer.byteArray(), "ERROR 77 NOT_PERMITTED 2");
    }

    @Test
    void shouldRefuseAnErrorFromAGatewayAsNotPermitted() throws Exception
    {
        final UnsafeBuffer buffer = new UnsafeBuffer(new byte[FrameEncoder.ERROR_LENGTH]);
        new FrameEncoder().error(buffer, 0, 78, io.pacer.wire.ErrorCode.MALFORMED_FRAME, 0);
        assertErrorThenCarryOn(buffer.byteArray(), "ERROR 78 NOT_PERMITTED 5");
    }

    @Test
    void shouldAnswerRequestsBeforeAMalformedFrameAndCountTheErrors() throws Exception
    {
        try (GatewayClient client = pacer.client())
        {
            client.bid(1, 1, 1_000).bid(2, 1, 1_000).raw(HexFormat.of().parseHex("00000000EB50")).send();
            assertThat(client.read(3)).containsExactlyInAnyOrder("BID 1", "BID 2", "ERROR 0 MALFORMED_FRAME 0");
            assertThat(client.isClosedByServer()).isTrue();
        }
        assertThat(pacer.server.gatewayStats().protocolErrors(io.pacer.wire.ErrorCode.MALFORMED_FRAME)).isPositive();
    }
}
