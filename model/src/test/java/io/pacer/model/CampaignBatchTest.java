package io.pacer.model;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** A bulk update's body: a JSON array or NDJSON, every bad item named, nothing applied if any is bad. */
class CampaignBatchTest
{
    private static final String FLIGHT = "\"start\":\"2026-01-01T00:00:00Z\",\"end\":\"2027-01-01T00:00:00Z\"";

    private static String campaign(final long id, final long budgetMicros)
    {
        return "{\"id\":" + id + ",\"budgetMicros\":" + budgetMicros + "," + FLIGHT + "}";
    }

    @Test
    void shouldReadAJsonArrayInOrder()
    {
        final CampaignBatch batch = CampaignBatch.parse("[" + campaign(2, 10) + ", " + campaign(1, 20) + "]");
        assertThat(batch.errors()).isEmpty();
        assertThat(batch.definitions()).extracting(CampaignDefinition::id).containsExactly(2L, 1L);
    }

    @Test
    void shouldNumberNdjsonItemsByNonBlankLineEvenWhenALineIsNotJson()
    {
        final CampaignBatch batch = CampaignBatch.parse(campaign(1, 10) + "\n\n{not json\n" + campaign(3, 0) + "\n");
        assertThat(batch.definitions()).extracting(CampaignDefinition::id).containsExactly(1L);
        assertThat(batch.errors()).extracting(CampaignBatch.ItemError::item).containsExactly(1, 2);
        assertThat(batch.errors().get(0).id()).isNull();
        assertThat(batch.errors().get(1)).isEqualTo(new CampaignBatch.ItemError(2, "3", "budgetMicros", "must be > 0, was 0"));
    }

    @Test
    void shouldRefuseADuplicateIdWithinTheBatch()
    {
        final CampaignBatch batch = CampaignBatch.parse("[" + campaign(7, 10) + "," + campaign(7, 20) + "]");
        assertThat(batch.errors()).containsExactly(new CampaignBatch.ItemError(1, "7", "id", "duplicate id 7 in this batch"));
    }

    @Test
    void shouldRefuseAnEmptyBodyOrABrokenArrayAsAWhole()
    {
        assertThatThrownBy(() -> CampaignBatch.parse("  \n ")).isInstanceOf(InvalidDefinitionException.class)
            .hasMessageContaining("document: must be a JSON array");
        assertThatThrownBy(() -> CampaignBatch.parse("[" + campaign(1, 10))).isInstanceOf(InvalidDefinitionException.class);
    }
}
