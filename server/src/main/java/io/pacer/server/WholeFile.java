package io.pacer.server;

import java.io.FileNotFoundException;
import java.io.IOException;
import java.io.RandomAccessFile;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.Arrays;

/**
 * Reads a whole file into one array, 1 MB per read. {@code Files.readAllBytes} reads through a
 * temporary direct buffer as large as the file, allocated and zeroed on every call (a 120 MB
 * campaigns file doubled the memory touched), and on JDK 17 one {@code RandomAccessFile} read of
 * the whole array mallocs a native buffer of its size.
 */
final class WholeFile
{
    private static final int CHUNK = 1 << 20;

    private WholeFile()
    {
    }

    /**
     * @throws NoSuchFileException if there is no such file
     * @throws IOException          if the file cannot be read, or is 2 GB or larger
     */
    static byte[] read(final Path file) throws IOException
    {
        try (RandomAccessFile in = new RandomAccessFile(file.toFile(), "r"))
        {
            final long length = in.length();
            if (length > Integer.MAX_VALUE - 8)
            {
                throw new IOException(file + " is too large to read whole (" + length + " bytes)");
            }
            final byte[] bytes = new byte[(int)length];
            for (int at = 0; at < bytes.length; at += CHUNK)
            {
                in.readFully(bytes, at, Math.min(CHUNK, bytes.length - at));
            }
            return bytes;
        }
        catch (final FileNotFoundException ex)
        {
            if (Files.notExists(file))
            {
                throw new NoSuchFileException(file.toString());
            }
            throw ex;
        }
    }

    /** Whether {@code file} holds exactly {@code bytes} (compared 1 MB at a time, with no copy of the whole file). */
    static boolean holds(final Path file, final byte[] bytes) throws IOException
    {
        try (RandomAccessFile in = new RandomAccessFile(file.toFile(), "r"))
        {
            if (in.length() != bytes.length)
            {
                return false;
            }
            final byte[] chunk = new byte[Math.min(CHUNK, bytes.length)];
            for (int at = 0; at < bytes.length; at += CHUNK)
            {
                final int n = Math.min(CHUNK, bytes.length - at);
                in.readFully(chunk, 0, n);
                if (Arrays.mismatch(chunk, 0, n, bytes, at, at + n) >= 0)
                {
                    return false;
                }
            }
            return true;
        }
    }
}
