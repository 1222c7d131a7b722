package io.pacer.server.audit;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * A report's table as text: a header and rows of cells, each column as wide as its widest cell,
 * left-aligned, two spaces apart, so that a budget of any size never runs into its neighbour.
 * Rows are held until {@link #appendTo}, which is when the widths are known. (picocli's
 * {@code Help.TextTable}, already on the class path, lays out help in columns of given widths and
 * wraps what does not fit: the opposite of what a table of figures needs.)
 */
final class TextTable
{
    private static final String GAP = "  ";

    private final List<String[]> rows = new ArrayList<>();
    private final int[] widths;

    /** @param header the columns' names */
    TextTable(final String... header)
    {
        widths = new int[header.length];
        row((Object[])header);
    }

    /** Adds a row of exactly as many cells as the header has columns; each is written as {@link String#valueOf}. */
    TextTable row(final Object... cells)
    {
        if (cells.length != widths.length)
        {
            throw new IllegalArgumentException("a row of " + cells.length + " cells in a table of " + widths.length +
                " columns: " + Arrays.toString(cells));
        }
        final String[] row = new String[cells.length];
        for (int i = 0; i < cells.length; i++)
        {
            row[i] = String.valueOf(cells[i]);
            widths[i] = Math.max(widths[i], row[i].length());
        }
        rows.add(row);
        return this;
    }

    /** Writes the header and the rows, a line each; no line ends in spaces. */
    void appendTo(final StringBuilder text)
    {
        for (final String[] row : rows)
        {
            final int start = text.length();
            for (int i = 0; i < row.length; i++)
            {
                text.append(row[i]);
                if (i + 1 < row.length)
                {
                    text.append(" ".repeat(widths[i] - row[i].length())).append(GAP);
                }
            }
            int end = text.length();
            while (end > start && text.charAt(end - 1) == ' ')
            {
                end--;
            }
            text.setLength(end);
            text.append(System.lineSeparator());
        }
    }
}
