package io.pacer.pipeline.journal;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

/** The operator-approved cut of a corrupt journal: everything from the bad record on goes. */
public final class JournalRepair
{
    private JournalRepair()
    {
    }

    /** Truncates {@code file} at {@code offset} and deletes every later segment. */
    public static void truncateAt(final Path dir, final Path file, final long offset)
    {
        try
        {
            for (final Path segment : JournalReader.segments(dir))
            {
                if (segment.compareTo(file) > 0)
                {
                    Files.delete(segment);
                }
            }
            try (FileChannel channel = FileChannel.open(file, StandardOpenOption.WRITE))
            {
                channel.truncate(offset);
                channel.force(true);
            }
        }
        catch (final IOException ex)
        {
            throw new UncheckedIOException("cannot truncate journal " + file, ex);
        }
    }
}
