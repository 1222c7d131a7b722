package io.pacer.server;

import io.pacer.model.CampaignFile;
import io.pacer.model.InvalidDefinitionException;
import io.pacer.pipeline.PacerThreads;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.CompletableFuture;

/**
 * A first start's campaigns file, read and parsed on a thread of its own while the rest of the
 * server starts (metrics, listeners, the journal's recovery): at a million campaigns the parse is
 * a second of the start. Only where no applied copy exists (a first start, or one after the copy
 * was lost): the watcher's first load then reads the file whole against no earlier file, which is
 * what this does. The watcher takes the read only if the file still holds the bytes read.
 */
final class CampaignsFilePreload
{
    /** The file's bytes and their read against no earlier file: its campaigns, or its error. */
    record Read(byte[] content, CampaignFile.Change change, InvalidDefinitionException error)
    {
        /**
         * The campaigns read.
         *
         * @throws InvalidDefinitionException if the bytes are not a valid campaigns file
         */
        CampaignFile.Change changeOrThrow()
        {
            if (error != null)
            {
                throw error;
            }
            return change;
        }
    }

    private final Path file;
    private final CompletableFuture<Read> read = new CompletableFuture<>();

    private CampaignsFilePreload(final Path file)
    {
        this.file = file;
    }

    /**
     * Starts reading {@code file}, unless there is an applied copy (the first load then compares
     * the file with it) or no file; null if not started.
     */
    static CampaignsFilePreload start(final Path file, final Path appliedCopy)
    {
        if ((appliedCopy != null && Files.exists(appliedCopy)) || !Files.isRegularFile(file))
        {
            return null;
        }
        final CampaignsFilePreload preload = new CampaignsFilePreload(file);
        PacerThreads.thread("pacer-campaigns-preload", () -> preload.read.complete(read(file))).start();
        return preload;
    }

    private static Read read(final Path file)
    {
        try
        {
            final byte[] content = WholeFile.read(file);
            try
            {
                return new Read(content, CampaignFile.empty().next(content), null);
            }
            catch (final InvalidDefinitionException ex)
            {
                return new Read(content, null, ex);
            }
        }
        catch (final IOException | RuntimeException ex)
        {
            // the watcher reads the file itself, and reports what is wrong
            return null;
        }
    }

    /** The read, once done, if the file still holds the bytes read; null if it changed since, or could not be read. */
    Read takeIfUnchanged()
    {
        final Read early = read.join();
        try
        {
            return early != null && WholeFile.holds(file, early.content()) ? early : null;
        }
        catch (final IOException ex)
        {
            return null;
        }
    }
}
