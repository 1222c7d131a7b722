package io.pacer.server.audit;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class TextTableTest
{
    private static final String NL = System.lineSeparator();

    @Test
    void shouldWidenEachColumnToItsWidestCellSoThatALargeBudgetKeepsItsNeighboursInLine()
    {
        final StringBuilder text = new StringBuilder("before" + NL);
        new TextTable("campaign", "budget", "spent")
            .row(1, "1000000000.000000", "1.085320")
            .row(22, "5.000000", "0.000001")
            .appendTo(text);

        assertThat(text.toString()).isEqualTo("before" + NL
            + "campaign  budget             spent" + NL
            + "1         1000000000.000000  1.085320" + NL
            + "22        5.000000           0.000001" + NL);
    }

    @Test
    void shouldEndNoLineInSpacesWhenTheLastCellIsShortOrEmpty()
    {
        final StringBuilder text = new StringBuilder();
        new TextTable("campaign", "run", "no-bids by reason").row("", "after", "").appendTo(text);

        assertThat(text.toString()).isEqualTo("campaign  run    no-bids by reason" + NL + "          after" + NL);
    }

    @Test
    void shouldPrintTheHeaderAloneWhenThereAreNoRows()
    {
        final StringBuilder text = new StringBuilder();
        new TextTable("gateway", "bid requests", "bids").appendTo(text);

        assertThat(text.toString()).isEqualTo("gateway  bid requests  bids" + NL);
    }

    @Test
    void shouldLeaveNoPartOfARowWhoseCellCannotBeWritten()
    {
        final Object broken = new Object()
        {
            @Override
            public String toString()
            {
                throw new IllegalStateException("no text");
            }
        };
        final TextTable table = new TextTable("gateway", "bids", "wins");
        assertThatThrownBy(() -> table.row("a-very-long-gateway-name", broken, 1)).isInstanceOf(IllegalStateException.class);
        table.row("g1", 2, 3);

        final StringBuilder text = new StringBuilder();
        table.appendTo(text);
        assertThat(text.toString()).isEqualTo("gateway  bids  wins" + NL + "g1       2     3" + NL);
    }

    @Test
    void shouldRefuseARowWithMoreOrFewerCellsThanTheHeader()
    {
        final TextTable table = new TextTable("gateway", "bids");

        assertThatThrownBy(() -> table.row("g1")).isInstanceOf(IllegalArgumentException.class)
            .hasMessageContaining("a row of 1 cells in a table of 2 columns");
    }

    @Test
    void shouldPrintToAStreamTheSameTextItAppendsAcrossManyChunks()
    {
        final TextTable table = new TextTable("campaign", "budget", "no-bids by reason");
        for (int i = 0; i < 20_000; i++)
        {
            table.row(i, i * 1_000_003L, i % 3 == 0 ? "" : "PACING " + i);
        }
        final StringBuilder appended = new StringBuilder();
        table.appendTo(appended);
        final java.io.ByteArrayOutputStream bytes = new java.io.ByteArrayOutputStream();
        final java.io.PrintStream out = new java.io.PrintStream(bytes, false, java.nio.charset.StandardCharsets.UTF_8);

        table.printTo(out);
        out.flush();

        assertThat(appended.length()).as("several 64 KB chunks").isGreaterThan(4 * 64 * 1024);
        assertThat(bytes.toString(java.nio.charset.StandardCharsets.UTF_8)).isEqualTo(appended.toString());
    }
}
