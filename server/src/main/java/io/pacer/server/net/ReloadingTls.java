package io.pacer.server.net;

import io.netty.handler.ssl.SslContext;
import io.pacer.server.config.TlsFiles;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Function;

/**
 * A listener's TLS context, rebuilt when its files change on disk, so that a certificate can be
 * rotated without a restart. {@link #check()} runs on a schedule off the I/O threads; it compares
 * the files' modification times and sizes, and only then builds a new context. New connections
 * take the context current when they are accepted; established ones keep theirs and are not
 * dropped. Files that no longer make a context are refused and counted, and the context before
 * them stays in use.
 */
public final class ReloadingTls
{
    private static final Logger LOG = LoggerFactory.getLogger(ReloadingTls.class);

    private final TlsFiles files;
    private final Function<TlsFiles, SslContext> build;
    private final AtomicLong reloads = new AtomicLong();
    private final AtomicLong failures = new AtomicLong();
    private volatile SslContext current;
    private List<Object> stamp;

    /**
     * @param build makes a context from the files; throws if they do not make one (at start-up
     *              that stops the server; later it is a refused reload)
     */
    public ReloadingTls(final TlsFiles files, final Function<TlsFiles, SslContext> build)
    {
        this.files = files;
        this.build = build;
        this.stamp = stamp();
        this.current = build.apply(files);
    }

    /** The context for a connection accepted now. */
    public SslContext current()
    {
        return current;
    }

    /** Rebuilds the context if a file changed; on the schedule's thread. */
    public void check()
    {
        final List<Object> now = stamp();
        if (Objects.equals(now, stamp))
        {
            return;
        }
        stamp = now;
        try
        {
            current = build.apply(files);
            reloads.incrementAndGet();
            LOG.info("{}: TLS files changed; new connections use {}", files.prefix(), files.certFile());
        }
        catch (final RuntimeException ex)
        {
            failures.incrementAndGet();
            LOG.error("{}: TLS files changed but make no usable context ({}); the previous one stays in use",
                files.prefix(), ex.getMessage());
        }
    }

    /** Contexts rebuilt after a change. */
    public long reloads()
    {
        return reloads.get();
    }

    /** Changes refused because the files made no usable context. */
    public long failures()
    {
        return failures.get();
    }

    private List<Object> stamp()
    {
        final List<Object> stamp = new ArrayList<>();
        for (final Path file : new Path[] {files.certFile(), files.keyFile(), files.clientCaFile()})
        {
            if (file == null)
            {
                continue;
            }
            try
            {
                final BasicFileAttributes attributes = Files.readAttributes(file, BasicFileAttributes.class);
                stamp.add(attributes.lastModifiedTime());
                stamp.add(attributes.size());
            }
            catch (final IOException ex)
            {
                // mid-rotation, the file may be briefly missing: that is a change, tried again next time
                stamp.add(ex.getClass().getName());
            }
        }
        return stamp;
    }
}
