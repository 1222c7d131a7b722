package io.pacer.server;

import io.pacer.server.gateway.ConnectionEvent;
import org.junit.jupiter.api.Test;

import java.util.Map;

import static io.pacer.server.TestPacer.asap;
import static org.assertj.core.api.Assertions.assertThat;

/** pacer.gateway.max-connections and pacer.gateway.idle-timeout on a real server. */
class ConnectionLimitsIntegrationTest
{
    @Test
    void shouldRefuseConnectionsPastTheLimitAndCountThem() throws Exception
    {
        try (TestPacer pacer = TestPacer.start(Map.of("pacer.gateway.max-connections", 2), asap(1, 1_000_000));
             GatewayClient first = pacer.client();
             GatewayClient second = pacer.client())
        {
            assertThat(first.ask(1, 1, 1_000)).isEqualTo("BID 1");
            assertThat(second.ask(2, 1, 1_000)).isEqualTo("BID 2");
            try (GatewayClient third = pacer.client())
            {
                third.timeoutMillis(5_000);
                assertThat(third.isClosedByServer()).isTrue();
            }
            assertThat(pacer.server.gatewayStats().total(ConnectionEvent.REFUSED)).isEqualTo(1);
            assertThat(first.ask(3, 1, 1_000)).isEqualTo("BID 3");
        }
    }

    @Test
    void shouldCloseAConnectionThatStaysIdleAndAnswerWhatItSentFirst() throws Exception
    {
        try (TestPacer pacer = TestPacer.start(Map.of("pacer.gateway.idle-timeout", "300ms"), asap(1, 1_000_000));
             GatewayClient client = pacer.client())
        {
            assertThat(client.ask(1, 1, 1_000)).isEqualTo("BID 1");
            client.timeoutMillis(5_000);
            assertThat(client.isClosedByServer()).isTrue();
            assertThat(pacer.server.gatewayStats().total(ConnectionEvent.IDLE_CLOSED)).isEqualTo(1);
        }
    }
}
