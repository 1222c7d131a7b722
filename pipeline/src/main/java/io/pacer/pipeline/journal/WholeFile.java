package io.pacer.pipeline.journal;

import java.io.IOException;
import java.io.RandomAccessFile;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;

/**
 * Reads a whole file into one array. {@code Files.readAllBytes} reads through a temporary direct
 * buffer as large as the file, allocated and zeroed on every call: for a 230 MB snapshot or a
 * 120 MB campaigns file that doubled the memory touched and took seconds on a small host.
 * {@link RandomAccessFile#readFully} copies into the array in small native chunks.
 */
public final class WholeFile
{
    private WholeFile()
    {
    }

    /**
     * @throws NoSuchFileException if there is no such file
     * @throws IOException          if the file cannot be read, or is 2 GB or larger
     */
    public static byte[] read(final Path file) throws IOException
    {
        if (Files.notExists(file))
        {
            throw new NoSuchFileException(file.toString());
        }
        try (RandomAccessFile in = new RandomAccessFile(file.toFile(), "r"))
        {
            final long length = in.length();
            if (length > Integer.MAX_VALUE - 8)
            {
                throw new IOException(file + " is too large to read whole (" + length + " bytes)");
            }
            final byte[] bytes = new byte[(int)length];
            in.readFully(bytes);
            return bytes;
        }
    }
}
