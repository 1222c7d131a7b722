package io.pacer.model;

import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** Re-reading a campaigns file parses only the campaigns whose text changed, and still checks the whole file. */
class CampaignFileIndexTest
{
    private static final String FLIGHT = "\"start\":\"2026-01-01T00:00:00Z\",\"end\":\"2027-01-01T00:00:00Z\"";

    private static byte[] file(final String... campaigns)
    {
        return ("{\"campaigns\":[" + String.join(",\n", campaigns) + "]}").getBytes(StandardCharsets.UTF_8);
    }

    private static String campaign(final long id, final long budgetMicros)
    {
        return "{\"id\":" + id + ",\"budgetMicros\":" + budgetMicros + "," + FLIGHT + "}";
    }

    @Test
    void shouldParseOnlyTheCampaignsWhoseTextChanged()
    {
        final CampaignDefinitionParser.ParsedFile first =
            CampaignDefinitionParser.parseCampaignsFile(file(campaign(1, 10), campaign(2, 20), campaign(3, 30)), new CampaignFileIndex());
        assertThat(first.parsed()).isEqualTo(3);

        final CampaignDefinitionParser.ParsedFile same =
            CampaignDefinitionParser.parseCampaignsFile(file(campaign(1, 10), campaign(2, 20), campaign(3, 30)), first.index());
        assertThat(same.parsed()).isZero();
        assertThat(same.definitions()).isEqualTo(first.definitions());

        final CampaignDefinitionParser.ParsedFile edited = CampaignDefinitionParser.parseCampaignsFile(
            file(campaign(3, 30), campaign(2, 25), campaign(4, 40)), same.index());
        assertThat(edited.parsed()).isEqualTo(2);
        assertThat(edited.definitions()).extracting(CampaignDefinition::id).containsExactly(3L, 2L, 4L);
        assertThat(edited.definitions().get(1).budgetMicros()).isEqualTo(25);
        assertThat(edited.index().size()).isEqualTo(3);
    }

    @Test
    void shouldStillRejectADuplicateIdAndBrokenJsonAmongUnchangedCampaigns()
    {
        final CampaignFileIndex index =
            CampaignDefinitionParser.parseCampaignsFile(file(campaign(1, 10), campaign(2, 20)), new CampaignFileIndex()).index();
        assertThatThrownBy(() -> CampaignDefinitionParser.parseCampaignsFile(file(campaign(1, 10), campaign(2, 20), campaign(1, 11)), index))
            .isInstanceOf(InvalidDefinitionException.class).hasMessageContaining("campaigns[2].id").hasMessageContaining("duplicate id 1");
        final byte[] broken = file(campaign(1, 10), campaign(2, 20));
        broken[broken.length - 1] = ' ';
        assertThatThrownBy(() -> CampaignDefinitionParser.parseCampaignsFile(broken, index))
            .isInstanceOf(InvalidDefinitionException.class).hasMessageContaining("not valid json");
    }

    @Test
    void shouldRejectADuplicateFieldWhetherTheFileIsReadFirstOrAgain()
    {
        final String twice = "{\"id\":3,\"budgetMicros\":30,\"budgetMicros\":31," + FLIGHT + "}";
        assertThatThrownBy(() -> CampaignDefinitionParser.parseCampaignsFile(file(campaign(1, 10), twice), new CampaignFileIndex()))
            .isInstanceOf(InvalidDefinitionException.class).hasMessageContaining("Duplicate field 'budgetMicros'");
        final CampaignFileIndex index =
            CampaignDefinitionParser.parseCampaignsFile(file(campaign(1, 10), campaign(2, 20)), new CampaignFileIndex()).index();
        assertThatThrownBy(() -> CampaignDefinitionParser.parseCampaignsFile(file(campaign(1, 10), twice), index))
            .isInstanceOf(InvalidDefinitionException.class).hasMessageContaining("Duplicate field 'budgetMicros'");
        final byte[] twoArrays = ("{\"campaigns\":[" + campaign(1, 10) + "],\"campaigns\":[" + campaign(2, 20) + "]}")
            .getBytes(StandardCharsets.UTF_8);
        for (final CampaignFileIndex previous : new CampaignFileIndex[] {new CampaignFileIndex(), index})
        {
            assertThatThrownBy(() -> CampaignDefinitionParser.parseCampaignsFile(twoArrays, previous))
                .isInstanceOf(InvalidDefinitionException.class).hasMessageContaining("Duplicate field 'campaigns'");
        }
    }

    @Test
    void shouldHashDifferentTextsApart()
    {
        final byte[] a = campaign(1, 10).getBytes(StandardCharsets.UTF_8);
        final byte[] b = campaign(1, 11).getBytes(StandardCharsets.UTF_8);
        assertThat(CampaignFileIndex.hash(a, 0, a.length)).isNotEqualTo(CampaignFileIndex.hash(b, 0, b.length));
        assertThat(CampaignFileIndex.hash(a, 0, a.length)).isEqualTo(CampaignFileIndex.hash(a.clone(), 0, a.length));
    }
}
