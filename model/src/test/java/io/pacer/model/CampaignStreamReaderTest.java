package io.pacer.model;

import com.fasterxml.jackson.core.JsonProcessingException;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

/** A campaigns file read token by token gives, for every campaign, what reading it as a tree gives: the definition or the error. */
class CampaignStreamReaderTest
{
    private static final String FLIGHT = "\"start\":\"2026-01-01T00:00:00Z\",\"end\":\"2027-01-01T00:00:00Z\"";

    /** Campaigns of every kind the readers meet, valid and not (the admin API and journal tests use them too). */
    static final List<String> CAMPAIGNS = List.of(
        "{\"id\":1,\"budgetMicros\":10," + FLIGHT + "}",
        "{\"budgetMicros\":10,\"id\":2," + FLIGHT + ",\"pacing\":\"ASAP\",\"status\":\"PAUSED\",\"timeZone\":\"Asia/Kolkata\"}",
        "{\"id\":3,\"budgetMicros\":10,\"dailyBudgetMicros\":null,\"maxBidCpmMicros\":null,\"timeZone\":null,\"pacing\":null," +
            "\"status\":null," + FLIGHT + "}",
        "{\"id\":18446744073709551615,\"budgetMicros\":10," + FLIGHT + "}",
        "{\"id\":18446744073709551616,\"budgetMicros\":10," + FLIGHT + "}",
        "{\"id\":-1,\"budgetMicros\":10," + FLIGHT + "}",
        "{\"id\":null,\"budgetMicros\":10," + FLIGHT + "}",
        "{\"id\":4,\"budgetMicros\":10.0," + FLIGHT + "}",
        "{\"id\":5,\"budgetMicros\":-10," + FLIGHT + "}",
        "{\"id\":6,\"budgetMicros\":\"10\"," + FLIGHT + "}",
        "{\"id\":7,\"budgetMicros\":99999999999999999999," + FLIGHT + "}",
        "{\"id\":8,\"budgetMicros\":10,\"start\":\"2026-01-01T01:00:00+01:00\",\"end\":\"2027-01-01T00:00:00.5Z\"}",
        "{\"id\":9,\"budgetMicros\":10,\"start\":\"2026-02-30T00:00:00Z\",\"end\":\"2027-01-01T00:00:00Z\"}",
        "{\"id\":10,\"budgetMicros\":10,\"start\":\"2027-01-01T00:00:00Z\",\"end\":\"2026-01-01T00:00:00Z\"}",
        "{\"id\":11,\"budgetMicros\":10," + FLIGHT + ",\"timeZone\":\"Mars/Olympus\"}",
        "{\"id\":12,\"budgetMicros\":10," + FLIGHT + ",\"pacing\":\"asap\"}",
        "{\"id\":13,\"budgetMicros\":10," + FLIGHT + ",\"owner\":{\"name\":\"x\",\"tags\":[1,{}]}}",
        "{\"id\":14,\"budgetMicros\":10," + FLIGHT + ",\"status\":[\"ACTIVE\"]}",
        "{\"id\":15,\"budgetMicros\":10,\"start\":\"2026-01-01T00:00:00Z\"}",
        "{\"id\":16,\"budgetMicros\":10,\"dailyBudgetMicros\":20," + FLIGHT + "}",
        "{\"id\":17,/* why */\"budgetMicros\":10, # budget\n" + FLIGHT + ",}",
        "{\"id\":18,\"budgetMicros\":10,\"budgetMicros\":11," + FLIGHT + "}",
        "{\"id\":19,\"budgetMicros\":10,\"pacing\":null," + FLIGHT + ",\"pacing\":\"ASAP\"}",
        "{\"id\":20,\"budgetMicros\":10," + FLIGHT + ",\"owner\":{\"name\":\"x\",\"name\":\"y\"}}",
        "{\"id\":21,\"budgetMicros\":10," + FLIGHT + ",\"status\":\"PAUSED\",\"pacing\":\"ASAP\",\"maxBidCpmMicros\":5}",
        "{}",
        "[1]",
        "\"campaign\"");

    @Test
    void shouldGiveWhatTheTreeGivesForEveryCampaign()
    {
        for (final String campaign : CAMPAIGNS)
        {
            final byte[] file = ("{\"campaigns\":[" + campaign + "]}").getBytes(StandardCharsets.UTF_8);
            Object expected;
            try
            {
                expected = CampaignDefinitionParser.parse(CampaignDefinitionParser.ELEMENT.readTree(campaign), "campaigns[0].");
            }
            catch (final JsonProcessingException ex)
            {
                expected = "document: not valid json: " + ex.getOriginalMessage();
            }
            catch (final Exception ex)
            {
                expected = ex.getMessage();
            }
            final Throwable error = catchThrowable(() -> CampaignFile.empty().next(file));
            final Object actual = error != null ? error.getMessage() : CampaignFile.empty().next(file).changed().get(0);
            assertThat(actual).as(campaign).isEqualTo(expected);
        }
    }
}
