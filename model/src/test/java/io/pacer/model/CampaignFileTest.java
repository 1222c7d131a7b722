package io.pacer.model;

import org.agrona.collections.Long2ObjectHashMap;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.Set;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.catchThrowable;

/** Reading a campaigns file again parses only what changed, and still judges the whole file as a first read would. */
class CampaignFileTest
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

    private static List<Long> ids(final CampaignFile file)
    {
        final List<Long> ids = new ArrayList<>();
        for (int i = 0; i < file.count(); i++)
        {
            ids.add(file.id(i));
        }
        return ids;
    }

    @Test
    void shouldParseOnlyTheCampaignsWhereTheFilesDiffer()
    {
        final CampaignFile.Change first = CampaignFile.empty().next(file(campaign(1, 10), campaign(2, 20), campaign(3, 30)));
        assertThat(first.parsed()).isEqualTo(3);
        assertThat(first.changed()).extracting(CampaignDefinition::id).containsExactly(1L, 2L, 3L);

        final CampaignFile.Change same = first.file().next(file(campaign(1, 10), campaign(2, 20), campaign(3, 30)));
        assertThat(same.parsed()).isZero();
        assertThat(same.changed()).isEmpty();
        assertThat(same.removed()).isEmpty();

        final CampaignFile.Change edited = same.file().next(file(campaign(1, 10), campaign(2, 25), campaign(3, 30)));
        assertThat(edited.parsed()).isEqualTo(1);
        assertThat(edited.changed()).singleElement().satisfies(d -> assertThat(d.budgetMicros()).isEqualTo(25));
        assertThat(ids(edited.file())).containsExactly(1L, 2L, 3L);
    }

    @Test
    void shouldLeaveOutACampaignWhoseTextChangedButNotItsMeaning()
    {
        final CampaignFile previous = CampaignFile.empty().next(file(campaign(1, 10), campaign(2, 20), campaign(3, 30))).file();
        final String reordered = "{ " + FLIGHT + ", /* moved */ \"budgetMicros\":20, \"id\":2 }";
        final CampaignFile.Change change = previous.next(file(campaign(1, 10), reordered, campaign(3, 31)));
        assertThat(change.changed()).extracting(CampaignDefinition::id).containsExactly(3L);
        assertThat(change.removed()).isEmpty();
    }

    @Test
    void shouldRejectAnEmptyFileReadFirstOrAgain()
    {
        assertThatThrownBy(() -> CampaignFile.empty().next(new byte[0]))
            .isInstanceOf(InvalidDefinitionException.class).hasMessage("document: is empty");
        final CampaignFile previous = CampaignFile.empty().next(file(campaign(1, 10))).file();
        assertThatThrownBy(() -> previous.next(new byte[0]))
            .isInstanceOf(InvalidDefinitionException.class).hasMessage("document: is empty");
    }

    @Test
    void shouldNameTheCampaignsNoLongerInTheFile()
    {
        final CampaignFile.Change first = CampaignFile.empty().next(file(campaign(1, 10), campaign(2, 20), campaign(3, 30)));
        final CampaignFile.Change shorter = first.file().next(file(campaign(1, 10), campaign(3, 30)));
        assertThat(shorter.removed()).singleElement().isEqualTo(CampaignDefinitionParser.parseJson(campaign(2, 20)));
        assertThat(shorter.changed()).isEmpty();
        assertThat(ids(shorter.file())).containsExactly(1L, 3L);

        final CampaignFile.Change reordered = shorter.file().next(file(campaign(3, 30), campaign(4, 40), campaign(1, 10)));
        assertThat(reordered.removed()).isEmpty();
        assertThat(reordered.changed()).extracting(CampaignDefinition::id).containsExactly(4L);
        assertThat(ids(reordered.file())).containsExactly(3L, 4L, 1L);
    }

    @Test
    void shouldStillRejectADuplicateIdAndBrokenJsonAmongUnchangedCampaigns()
    {
        final CampaignFile previous = CampaignFile.empty().next(file(campaign(1, 10), campaign(2, 20), campaign(3, 30))).file();
        assertThatThrownBy(() -> previous.next(file(campaign(1, 10), campaign(2, 20), campaign(1, 11))))
            .isInstanceOf(InvalidDefinitionException.class).hasMessageContaining("campaigns[2].id").hasMessageContaining("duplicate id 1");
        assertThatThrownBy(() -> previous.next(file(campaign(1, 10), campaign(3, 20), campaign(3, 30))))
            .isInstanceOf(InvalidDefinitionException.class).hasMessageContaining("campaigns[2].id").hasMessageContaining("duplicate id 3");
        final byte[] broken = file(campaign(1, 10), campaign(2, 20), campaign(3, 30));
        broken[broken.length - 1] = ' ';
        assertThatThrownBy(() -> previous.next(broken))
            .isInstanceOf(InvalidDefinitionException.class).hasMessageContaining("not valid json");

        final CampaignFile.Change after = previous.next(file(campaign(1, 10), campaign(2, 21), campaign(3, 30)));
        assertThat(after.changed()).singleElement().satisfies(d -> assertThat(d.budgetMicros()).isEqualTo(21));
        assertThat(ids(after.file())).containsExactly(1L, 2L, 3L);
    }

    @Test
    void shouldRejectADuplicateFieldWhetherTheFileIsReadFirstOrAgain()
    {
        final String twice = "{\"id\":3,\"budgetMicros\":30,\"budgetMicros\":31," + FLIGHT + "}";
        assertThatThrownBy(() -> CampaignFile.empty().next(file(campaign(1, 10), twice)))
            .isInstanceOf(InvalidDefinitionException.class).hasMessageContaining("Duplicate field 'budgetMicros'");
        final CampaignFile previous = CampaignFile.empty().next(file(campaign(1, 10), campaign(2, 20))).file();
        assertThatThrownBy(() -> previous.next(file(campaign(1, 10), twice)))
            .isInstanceOf(InvalidDefinitionException.class).hasMessageContaining("Duplicate field 'budgetMicros'");
        final byte[] twoArrays = ("{\"campaigns\":[" + campaign(1, 10) + "],\"campaigns\":[" + campaign(2, 20) + "]}")
            .getBytes(StandardCharsets.UTF_8);
        for (final CampaignFile file : new CampaignFile[] {CampaignFile.empty(), previous})
        {
            assertThatThrownBy(() -> file.next(twoArrays))
                .isInstanceOf(InvalidDefinitionException.class).hasMessageContaining("Duplicate field 'campaigns'");
        }
    }

    /**
     * Random edits (seeded): budgets changed, campaigns added and dropped, comments, blank lines
     * and trailing commas between them, duplicate ids and broken text. Every read again ends
     * where a first read of the same bytes does: the same campaigns, or the same error; and its
     * changes and removals, applied to what was in force, give what the first read gives.
     */
    @Test
    void shouldAgreeWithAFirstReadAfterAnyEdit()
    {
        final Random random = new Random(20261204L);
        final List<String> texts = new ArrayList<>();
        for (int i = 1; i <= 40; i++)
        {
            texts.add(campaign(i, 10L * i));
        }
        final List<String> separators = new ArrayList<>(List.of(",\n", ",\n", ",\n", ",\n", ",\n"));
        CampaignFile current = CampaignFile.empty();
        final Long2ObjectHashMap<CampaignDefinition> inForce = new Long2ObjectHashMap<>();
        long nextId = 100;
        String goodTrailer = "";
        List<String> goodSeparators = List.of();
        for (int round = 0; round < 600; round++)
        {
            final List<String> edited = new ArrayList<>(texts);
            final int at = edited.isEmpty() ? 0 : random.nextInt(edited.size());
            String trailer = "]}";
            final int edit = random.nextInt(9);
            switch (edit)
            {
                case 0, 1 -> edited.set(at, campaign(idOf(edited.get(at)), random.nextInt(1000)));
                case 2 -> edited.add(at, campaign(nextId++, random.nextInt(1000)));
                case 3 -> edited.remove(at);
                case 4 -> edited.add(at, campaign(idOf(edited.get(random.nextInt(edited.size()))), 1));
                case 5 -> edited.set(at, edited.get(at).replace("\"budgetMicros\"", "\"budget\""));
                case 6 -> separators.set(random.nextInt(separators.size()), random.nextBoolean() ? ",/* note */\n" : " ,\n# yaml note\n");
                case 7 -> trailer = random.nextBoolean() ? ",]}" : "] }\n";
                default -> edited.set(at, edited.get(at).substring(0, edited.get(at).length() - 1));
            }
            final StringBuilder text = new StringBuilder("{\"campaigns\":[");
            for (int i = 0; i < edited.size(); i++)
            {
                text.append(i == 0 ? "" : separators.get(i % separators.size())).append(edited.get(i));
            }
            final byte[] bytes = text.append(trailer).toString().getBytes(StandardCharsets.UTF_8);

            final Throwable firstError = catchThrowable(() -> CampaignFile.empty().next(bytes));
            final CampaignFile.Change change;
            try
            {
                change = current.next(bytes);
            }
            catch (final InvalidDefinitionException ex)
            {
                assertThat(firstError).as("round %d", round).isNotNull().hasMessage(ex.getMessage());
                continue;
            }
            assertThat(firstError).as("round %d", round).isNull();
            final List<CampaignDefinition> expected = CampaignFile.empty().next(bytes).changed();
            current = change.file();
            assertThat(ids(current)).as("round %d", round).containsExactlyElementsOf(expected.stream().map(CampaignDefinition::id).toList());
            if ((edit <= 1 || (edit <= 3 && Set.copyOf(separators).size() == 1))
                && trailer.equals(goodTrailer) && separators.equals(goodSeparators))
            {
                // one campaign's text changed, added or dropped: the campaigns around it are compared, not read
                assertThat(change.parsed()).as("round %d", round).isLessThanOrEqualTo(2);
            }
            change.changed().forEach(d -> inForce.put(d.id(), d));
            change.removed().forEach(d -> assertThat(inForce.remove(d.id())).isEqualTo(d));
            assertThat(inForce.values()).as("round %d", round).containsExactlyInAnyOrderElementsOf(expected);
            texts.clear();
            texts.addAll(edited);
            goodTrailer = trailer;
            goodSeparators = List.copyOf(separators);
        }
    }

    private static long idOf(final String campaign)
    {
        return Long.parseLong(campaign.substring(campaign.indexOf(':') + 1, campaign.indexOf(',')));
    }

    @Test
    void shouldHashDifferentTextsApart()
    {
        final byte[] a = campaign(1, 10).getBytes(StandardCharsets.UTF_8);
        final byte[] b = campaign(1, 11).getBytes(StandardCharsets.UTF_8);
        assertThat(TextHash.of(a, 0, a.length)).isNotEqualTo(TextHash.of(b, 0, b.length));
        assertThat(TextHash.of(a, 0, a.length)).isEqualTo(TextHash.of(a.clone(), 0, a.length));
    }
}
