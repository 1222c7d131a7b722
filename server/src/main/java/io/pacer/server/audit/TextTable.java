package io.pacer.server.audit;

import java.io.PrintStream;
import java.util.Arrays;

/**
 * A report's table as text: a header and rows of cells, each column as wide as its widest cell,
 * left-aligned, two spaces apart, so that a budget of any size never runs into its neighbour.
 * Rows are held until {@link #appendTo} or {@link #printTo}, which is when the widths are known: their cells' text in
 * one buffer and where each cell ends, not a {@code String} object each (a million campaigns'
 * rows are eight million cells). (picocli's {@code Help.TextTable}, already on the class path,
 * lays out help in columns of given widths and wraps what does not fit: the opposite of what a
 * table of figures needs.)
 */
final class TextTable
{
    private static final String GAP = "  ";
    /** {@link #printTo} prints when this many chars are waiting. */
    private static final int PRINT_CHUNK = 64 * 1024;

    private final int[] widths;
    private final StringBuilder cells = new StringBuilder(1024);
    /** Where each cell's text ends in {@link #cells}, row after row. */
    private int[] ends = new int[64];
    private int count;

    /** @param header the columns' names */
    TextTable(final String... header)
    {
        widths = new int[header.length];
        row((Object[])header);
    }

    /** Adds a row of exactly as many cells as the header has columns; each is written as {@link String#valueOf}. */
    TextTable row(final Object... row)
    {
        if (row.length != widths.length)
        {
            throw new IllegalArgumentException("a row of " + row.length + " cells in a table of " + widths.length +
                " columns: " + Arrays.toString(row));
        }
        if (count + row.length > ends.length)
        {
            ends = Arrays.copyOf(ends, Math.max(ends.length * 2, count + row.length));
        }
        final int rowStart = cells.length();
        try
        {
            for (int i = 0; i < row.length; i++)
            {
                cells.append(row[i]);
                ends[count + i] = cells.length();
            }
        }
        catch (final RuntimeException ex)
        {
            // a cell that cannot be written leaves no part of its row behind
            cells.setLength(rowStart);
            throw ex;
        }
        for (int i = 0; i < row.length; i++)
        {
            final int cell = count + i;
            widths[i] = Math.max(widths[i], ends[cell] - (cell == 0 ? 0 : ends[cell - 1]));
        }
        count += row.length;
        return this;
    }

    /** Writes the header and the rows, a line each; no line ends in spaces. */
    void appendTo(final StringBuilder text)
    {
        for (int first = 0; first < count; first += widths.length)
        {
            appendLine(first, text);
        }
    }

    /**
     * As {@link #appendTo}, printing to {@code out} as it goes, some 64 KB at a time: a million
     * campaigns' table is ~100 MB of text, which as one string was copied three times over and
     * was half of such a replay's time.
     */
    void printTo(final PrintStream out)
    {
        final StringBuilder chunk = new StringBuilder(PRINT_CHUNK + 1024);
        for (int first = 0; first < count; first += widths.length)
        {
            appendLine(first, chunk);
            if (chunk.length() >= PRINT_CHUNK)
            {
                out.append(chunk);
                chunk.setLength(0);
            }
        }
        out.append(chunk);
    }

    /** Appends the line of the row whose first cell is {@code first}. */
    private void appendLine(final int first, final StringBuilder text)
    {
        final int lineStart = text.length();
        for (int i = 0; i < widths.length; i++)
        {
            final int cell = first + i;
            final int start = cell == 0 ? 0 : ends[cell - 1];
            text.append(cells, start, ends[cell]);
            if (i + 1 < widths.length)
            {
                for (int pad = widths[i] - (ends[cell] - start); pad > 0; pad--)
                {
                    text.append(' ');
                }
                text.append(GAP);
            }
        }
        int end = text.length();
        while (end > lineStart && text.charAt(end - 1) == ' ')
        {
            end--;
        }
        text.setLength(end);
        text.append(System.lineSeparator());
    }
}
