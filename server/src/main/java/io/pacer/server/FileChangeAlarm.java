package io.pacer.server;

import io.pacer.pipeline.PacerThreads;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.nio.file.ClosedWatchServiceException;
import java.nio.file.Path;
import java.nio.file.StandardWatchEventKinds;
import java.nio.file.WatchEvent;
import java.nio.file.WatchKey;
import java.nio.file.WatchService;
import java.util.concurrent.TimeUnit;

/**
 * Runs a task soon after the operating system reports that a file was written, created or
 * renamed into place (inotify on Linux, through the JDK's {@link WatchService}), once the writes
 * have paused for a moment, so that a file written in several pieces is read whole. It only
 * wakes a poller early: where the OS reports nothing (some network and container file systems),
 * the poller's own interval still finds the change.
 */
final class FileChangeAlarm implements AutoCloseable
{
    /** How long the writes to the file must pause before the task runs. */
    static final long SETTLE_MILLIS = 20;
    /** The longest the task waits for the writes to pause. */
    static final long MAX_SETTLE_MILLIS = 500;

    private static final Logger LOG = LoggerFactory.getLogger(FileChangeAlarm.class);

    private final WatchService watcher;
    private final Path name;
    private final Runnable task;
    private final Thread thread;

    private FileChangeAlarm(final WatchService watcher, final Path file, final Runnable task)
    {
        this.watcher = watcher;
        this.name = file.getFileName();
        this.task = task;
        this.thread = PacerThreads.factory("pacer-campaigns-alarm").newThread(this::run);
        thread.setDaemon(true);
    }

    /**
     * Watches {@code file}'s directory; null, logged, where it cannot (the poller alone then finds changes).
     */
    static FileChangeAlarm start(final Path file, final Runnable task)
    {
        final Path dir = file.toAbsolutePath().getParent();
        WatchService watcher = null;
        try
        {
            watcher = dir.getFileSystem().newWatchService();
            dir.register(watcher, StandardWatchEventKinds.ENTRY_CREATE, StandardWatchEventKinds.ENTRY_MODIFY);
            final FileChangeAlarm alarm = new FileChangeAlarm(watcher, file, task);
            alarm.thread.start();
            return alarm;
        }
        catch (final IOException | UnsupportedOperationException ex)
        {
            LOG.info("no change notices for {} ({}): polling only", dir, ex.toString());
            closeQuietly(watcher);
            return null;
        }
    }

    private void run()
    {
        try
        {
            while (true)
            {
                if (!about(watcher.take()))
                {
                    continue;
                }
                // wait for a pause in the writes to the file (other files' events do not extend it)
                final long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(MAX_SETTLE_MILLIS);
                long quietUntil = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(SETTLE_MILLIS);
                for (long now = System.nanoTime(); now < Math.min(quietUntil, deadline); now = System.nanoTime())
                {
                    final WatchKey more = watcher.poll(Math.min(quietUntil, deadline) - now, TimeUnit.NANOSECONDS);
                    if (more != null && about(more))
                    {
                        quietUntil = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(SETTLE_MILLIS);
                    }
                }
                task.run();
            }
        }
        catch (final InterruptedException | ClosedWatchServiceException ex)
        {
            // closed
        }
        catch (final IllegalStateException ex)
        {
            LOG.warn("change notices for {} stopped ({}): polling only", name, ex.getMessage());
        }
    }

    /**
     * Whether the key's events include our file (or were too many to tell); the key is reset.
     *
     * @throws IllegalStateException if the directory can no longer be watched (removed or replaced)
     */
    private boolean about(final WatchKey key)
    {
        boolean ours = false;
        for (final WatchEvent<?> event : key.pollEvents())
        {
            ours |= event.kind() == StandardWatchEventKinds.OVERFLOW || name.equals(event.context());
        }
        if (!key.reset())
        {
            throw new IllegalStateException("the directory is no longer watched");
        }
        return ours;
    }

    @Override
    public void close()
    {
        closeQuietly(watcher);
        thread.interrupt();
    }

    private static void closeQuietly(final WatchService watcher)
    {
        if (watcher == null)
        {
            return;
        }
        try
        {
            watcher.close();
        }
        catch (final IOException ex)
        {
            LOG.debug("closing the change notices", ex);
        }
    }
}
