package io.pacer.model;

import org.junit.jupiter.api.Test;

import java.time.Instant;
import java.time.ZoneId;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class CampaignDefinitionParserTest
{
    /**
     * A single document (an admin PUT body, a journal's update record) is read from its tokens
     * when it can be; whatever it holds, the answer is the tree path's: the same definition, or the
     * same error. Also after it: a second value, or text that is not JSON.
     */
    @Test
    void shouldGiveWhatTheTreeGivesForEveryDocument()
    {
        final List<String> documents = new java.util.ArrayList<>(CampaignStreamReaderTest.CAMPAIGNS);
        documents.add(CampaignStreamReaderTest.CAMPAIGNS.get(0) + " {}");
        documents.add(CampaignStreamReaderTest.CAMPAIGNS.get(0) + " x");
        documents.add(" \n" + CampaignStreamReaderTest.CAMPAIGNS.get(1) + "\n ");
        documents.add("");
        for (final String document : documents)
        {
            Object expected;
            try
            {
                expected = CampaignDefinitionParser.parse(CampaignDefinitionParser.readStrict(document), "");
            }
            catch (final InvalidDefinitionException ex)
            {
                expected = ex.getMessage();
            }
            Object actual;
            try
            {
                actual = CampaignDefinitionParser.parseJson(document);
            }
            catch (final InvalidDefinitionException ex)
            {
                actual = ex.getMessage();
            }
            assertThat(actual).as(document).isEqualTo(expected);
        }
    }

    private static final String FULL = """
        {
          "id": 42,
          "budgetMicros": 5000000000,
          "dailyBudgetMicros": 0,
          "start": "2026-12-02T00:00:00Z",
          "end": "2026-12-09T00:00:00Z",
          "timeZone": "UTC",
          "maxBidCpmMicros": 20000000,
          "pacing": "EVEN",
          "status": "ACTIVE"
        }""";

    @Test
    void shouldParseTheOperationsExample()
    {
        final CampaignDefinition d = CampaignDefinitionParser.parseJson(FULL);
        assertThat(d.id()).isEqualTo(42);
        assertThat(d.budgetMicros()).isEqualTo(5_000_000_000L);
        assertThat(d.hasDailyCap()).isFalse();
        assertThat(d.start()).isEqualTo(Instant.parse("2026-12-02T00:00:00Z"));
        assertThat(d.end()).isEqualTo(Instant.parse("2026-12-09T00:00:00Z"));
        assertThat(d.timeZone()).isEqualTo(ZoneId.of("UTC"));
        assertThat(d.maxBidCpmMicros()).isEqualTo(20_000_000);
        assertThat(d.pacing()).isEqualTo(PacingMode.EVEN);
        assertThat(d.status()).isEqualTo(CampaignStatus.ACTIVE);
    }

    @Test
    void shouldApplyDefaultsForOptionalFields()
    {
        final CampaignDefinition d = CampaignDefinitionParser.parseJson(
            "{\"id\":1,\"budgetMicros\":10,\"start\":\"2026-01-01T00:00:00Z\",\"end\":\"2026-01-02T00:00:00Z\"}");
        assertThat(d.dailyBudgetMicros()).isZero();
        assertThat(d.maxBidCpmMicros()).isZero();
        assertThat(d.timeZone()).isEqualTo(ZoneId.of("UTC"));
        assertThat(d.pacing()).isEqualTo(PacingMode.EVEN);
        assertThat(d.status()).isEqualTo(CampaignStatus.ACTIVE);
    }

    @Test
    void shouldRoundTripThroughItsJson()
    {
        final CampaignDefinition d = CampaignDefinitionParser.parseJson(FULL.replace("\"UTC\"", "\"Europe/Paris\""));
        assertThat(CampaignDefinitionParser.parseJson(CampaignJson.definition(d))).isEqualTo(d);
    }

    @Test
    void shouldAcceptTheWholeUnsigned64BitIdRange()
    {
        final CampaignDefinition d = CampaignDefinitionParser.parseJson(FULL.replace("\"id\": 42", "\"id\": 18446744073709551615"));
        assertThat(d.id()).isEqualTo(-1L);
        assertThat(CampaignJson.definition(d)).contains("\"id\":18446744073709551615");
    }

    @Test
    void shouldRejectUnknownFieldByName()
    {
        assertRejected(FULL.replace("\"status\"", "\"colour\": \"red\", \"status\""), "colour", "unknown field");
    }

    @Test
    void shouldRejectQuotedNumberAsWrongType()
    {
        assertRejected(FULL.replace("5000000000", "\"5000000000\""), "budgetMicros", "must be an integer");
    }

    @Test
    void shouldRejectFractionalMoney()
    {
        assertRejected(FULL.replace("20000000", "2.5"), "maxBidCpmMicros", "integer");
    }

    @Test
    void shouldRejectNegativeMoney()
    {
        assertRejected(FULL.replace("\"dailyBudgetMicros\": 0", "\"dailyBudgetMicros\": -1"), "dailyBudgetMicros", ">= 0");
        assertRejected(FULL.replace("20000000", "-5"), "maxBidCpmMicros", ">= 0");
    }

    @Test
    void shouldRejectZeroBudget()
    {
        assertRejected(FULL.replace("5000000000", "0"), "budgetMicros", "> 0");
    }

    @Test
    void shouldRejectBudgetWhoseNanosWouldOverflow()
    {
        assertRejected(FULL.replace("5000000000", "9223372036854775807"), "budgetMicros", "<=");
    }

    @Test
    void shouldRejectEndBeforeOrAtStart()
    {
        assertRejected(FULL.replace("2026-12-09T00:00:00Z", "2026-12-01T00:00:00Z"), "end", "after start");
        assertRejected(FULL.replace("2026-12-09T00:00:00Z", "2026-12-02T00:00:00Z"), "end", "after start");
    }

    @Test
    void shouldRejectMissingRequiredFields()
    {
        assertRejected(FULL.replace("\"id\": 42,", ""), "id", "required");
        assertRejected(FULL.replace("\"budgetMicros\": 5000000000,", ""), "budgetMicros", "required");
        assertRejected(FULL.replace("\"start\": \"2026-12-02T00:00:00Z\",", ""), "start", "required");
    }

    @Test
    void shouldRejectBadInstantZonePacingAndStatus()
    {
        assertRejected(FULL.replace("2026-12-02T00:00:00Z", "yesterday"), "start", "ISO-8601");
        assertRejected(FULL.replace("\"UTC\"", "\"Mars/Olympus\""), "timeZone", "IANA");
        assertRejected(FULL.replace("\"EVEN\"", "\"FAST\""), "pacing", "[EVEN, ASAP]");
        assertRejected(FULL.replace("\"ACTIVE\"", "\"RUNNING\""), "status", "[ACTIVE, PAUSED]");
    }

    @Test
    void shouldRejectNegativeOrOversizedId()
    {
        assertRejected(FULL.replace("\"id\": 42", "\"id\": -42"), "id", "unsigned");
        assertRejected(FULL.replace("\"id\": 42", "\"id\": 18446744073709551616"), "id", "unsigned");
    }

    @Test
    void shouldRejectDocumentThatIsNotJson()
    {
        assertRejected("{\"id\": 42,", "document", "not valid json");
    }

    @Test
    void shouldAcceptAnOffsetInstant()
    {
        final CampaignDefinition d = CampaignDefinitionParser.parseJson(FULL.replace("2026-12-02T00:00:00Z", "2026-12-02T01:00:00+01:00"));
        assertThat(d.start()).isEqualTo(Instant.parse("2026-12-02T00:00:00Z"));
    }

    @Test
    void shouldParseCampaignsFile()
    {
        final List<CampaignDefinition> all = CampaignDefinitionParser.parseCampaignsFile(
            "{ \"campaigns\": [ " + FULL + ", " + FULL.replace("\"id\": 42", "\"id\": 43") + " ] }");
        assertThat(all).extracting(CampaignDefinition::id).containsExactly(42L, 43L);
    }

    @Test
    void shouldRejectWholeCampaignsFileNamingTheBadCampaign()
    {
        assertThatThrownBy(() -> CampaignDefinitionParser.parseCampaignsFile(
            "{ \"campaigns\": [ " + FULL + ", " + FULL.replace("5000000000", "-1") + " ] }"))
            .isInstanceOfSatisfying(InvalidDefinitionException.class,
                ex -> assertThat(ex.field()).isEqualTo("campaigns[1].budgetMicros"));
    }

    @Test
    void shouldRejectDuplicateIdsInCampaignsFile()
    {
        assertThatThrownBy(() -> CampaignDefinitionParser.parseCampaignsFile("{ \"campaigns\": [ " + FULL + ", " + FULL + " ] }"))
            .isInstanceOfSatisfying(InvalidDefinitionException.class,
                ex -> assertThat(ex.field()).isEqualTo("campaigns[1].id"));
    }

    @Test
    void shouldRejectCampaignsFileWithoutCampaignsArray()
    {
        assertThatThrownBy(() -> CampaignDefinitionParser.parseCampaignsFile("{ \"campaign\": [] }"))
            .isInstanceOfSatisfying(InvalidDefinitionException.class, ex -> assertThat(ex.field()).isEqualTo("campaign"));
        assertThatThrownBy(() -> CampaignDefinitionParser.parseCampaignsFile("{ \"campaigns\": 3 }"))
            .isInstanceOfSatisfying(InvalidDefinitionException.class, ex -> assertThat(ex.field()).isEqualTo("campaigns"));
    }

    private static void assertRejected(final String json, final String field, final String messagePart)
    {
        assertThatThrownBy(() -> CampaignDefinitionParser.parseJson(json))
            .isInstanceOfSatisfying(InvalidDefinitionException.class, ex ->
            {
                assertThat(ex.field()).isEqualTo(field);
                assertThat(ex.getMessage()).contains(messagePart);
            });
    }
}
