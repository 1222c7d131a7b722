package io.pacer.pipeline.journal;

import java.nio.file.Path;

/** A record that fails its CRC or framing before the tail of the journal. */
public final class JournalCorruptException extends RuntimeException
{
    private static final long serialVersionUID = 1L;

    private final transient Path file;
    private final long offset;

    public JournalCorruptException(final Path file, final long offset, final String problem)
    {
        super(file + " at offset " + offset + ": " + problem);
        this.file = file;
        this.offset = offset;
    }

    public Path file()
    {
        return file;
    }

    public long offset()
    {
        return offset;
    }
}
