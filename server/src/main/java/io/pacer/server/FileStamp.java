package io.pacer.server;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;
import java.nio.file.attribute.FileTime;
import java.util.Objects;

/**
 * What says a file changed without reading it: its modification time, size and identity (the
 * inode, so an atomic rename over it is a change even within one clock tick). The campaigns-file
 * watcher compares stamps on every poll and reads the file (a million campaigns is 120 MB) only
 * when its stamp differs.
 */
record FileStamp(FileTime modified, long size, Object key, long takenMillis)
{
    /**
     * Some file systems keep modification times to a clock tick of a few milliseconds: a write of
     * the same size in the same tick as an earlier one leaves the stamp as it was. A stamp is
     * trusted only once the modification it shows is older than this before it was taken.
     */
    private static final long TICK_MARGIN_MILLIS = 1_000;

    /**
     * Whether the file certainly has not changed since {@code earlier} was taken: same time, size
     * and inode, and that time far enough before {@code earlier} that no later write shares it.
     */
    boolean unchangedSince(final FileStamp earlier)
    {
        return earlier != null && modified.equals(earlier.modified) && size == earlier.size &&
            Objects.equals(key, earlier.key) && modified.toMillis() < earlier.takenMillis - TICK_MARGIN_MILLIS;
    }

    /** The file's stamp now, or null if it cannot be read (missing: the caller reports it). */
    static FileStamp of(final Path file)
    {
        try
        {
            final BasicFileAttributes attributes = Files.readAttributes(file, BasicFileAttributes.class);
            return new FileStamp(attributes.lastModifiedTime(), attributes.size(), attributes.fileKey(),
                System.currentTimeMillis());
        }
        catch (final IOException ex)
        {
            return null;
        }
    }
}
