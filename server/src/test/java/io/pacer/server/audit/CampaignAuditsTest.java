package io.pacer.server.audit;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class CampaignAuditsTest
{
    @Test
    void shouldCountEachCampaignInARowOfItsOwnAcrossGrowth()
    {
        final CampaignAudits audits = new CampaignAudits();
        for (long id = 1; id <= 1_000; id++)
        {
            final int row = audits.row(id);
            for (long n = 0; n < id % 7; n++)
            {
                audits.countBid(row);
            }
            audits.countNoBid(row, (int)(id % 7) + 1);
            audits.countWin(audits.row(id));
            audits.peakCommitted(row, id * 10);
            audits.peakCommitted(row, id);
        }
        for (long id = 1; id <= 1_000; id++)
        {
            final int row = audits.existingRow(id);
            assertThat(audits.bids(row)).isEqualTo(id % 7);
            assertThat(audits.wins(row)).isEqualTo(1);
            assertThat(audits.peakCommittedNanos(row)).isEqualTo(id * 10);
            for (int reason = 1; reason < CampaignAudits.reasonCodes(); reason++)
            {
                assertThat(audits.noBids(row, reason)).isEqualTo(reason == id % 7 + 1 ? 1 : 0);
            }
        }
    }

    @Test
    void shouldListIdsInUnsignedOrder()
    {
        final CampaignAudits audits = new CampaignAudits();
        audits.row(-1L);
        audits.row(5);
        audits.row(Long.MIN_VALUE);
        audits.row(0);
        audits.row(Long.MAX_VALUE);

        assertThat(audits.idsInOrder()).containsExactly(0, 5, Long.MAX_VALUE, Long.MIN_VALUE, -1L);
    }

    @Test
    void shouldRefuseAReasonCodeTheWireDoesNotHaveRatherThanCountItInTheNextRow()
    {
        final CampaignAudits audits = new CampaignAudits();
        final int first = audits.row(1);
        final int second = audits.row(2);

        assertThatThrownBy(() -> audits.countNoBid(first, 8))
            .isInstanceOf(IllegalArgumentException.class)
            .hasMessageContaining("reason code 8");
        assertThatThrownBy(() -> audits.countNoBid(first, 0)).isInstanceOf(IllegalArgumentException.class);
        assertThat(audits.bids(second)).isZero();
        assertThat(audits.wins(second)).isZero();
    }

    @Test
    void shouldTouchARowWithoutChangingIt()
    {
        final CampaignAudits audits = new CampaignAudits();
        final int row = audits.row(7);
        audits.countBid(row);
        audits.countNoBid(row, 3);

        audits.touchRow(audits.offsetOf(7));

        assertThat(audits.bids(audits.existingRow(7))).isEqualTo(1);
        assertThat(audits.noBids(audits.existingRow(7), 3)).isEqualTo(1);
        assertThat(audits.idsInOrder()).containsExactly(7);
    }

    @Test
    void shouldTouchWithoutAddingARow()
    {
        final CampaignAudits audits = new CampaignAudits();
        assertThat(audits.offsetOf(42)).isEqualTo(-1);
        audits.touchRow(audits.offsetOf(42));

        assertThat(audits.idsInOrder()).isEmpty();
        assertThatThrownBy(() -> audits.existingRow(42))
            .isInstanceOf(IllegalArgumentException.class)
            .hasMessageContaining("campaign 42");
    }
}
