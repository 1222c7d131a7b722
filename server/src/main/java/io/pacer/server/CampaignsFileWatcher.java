package io.pacer.server;

import io.pacer.model.CampaignDefinition;
import io.pacer.model.CampaignFile;
import io.pacer.model.CampaignStatus;
import io.pacer.model.InvalidDefinitionException;
import io.pacer.pipeline.AdminCommand;
import io.pacer.pipeline.PacerPipeline;
import io.pacer.pipeline.PacerThreads;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Watches the campaigns file by polling its content. When it changes and is valid, each added
 * or changed campaign becomes one ordered update event in the ring (exactly like an admin PUT),
 * and a campaign no longer in the file is paused, never deleted. An invalid file is rejected
 * whole, logged and counted; the last good state stays in force. Polling sees edits made by
 * rename, on network file systems and inside containers; where the OS reports writes
 * (inotify), a {@link FileChangeAlarm} polls at once instead of at the next interval. A change
 * is read against the file as last read ({@link CampaignFile}): only the changed part is parsed.
 */
public final class CampaignsFileWatcher implements AutoCloseable
{
    /**
     * Changes per ring event: a file change is published as batches of this many updates, each one
     * ordered event (and one journal record per campaign), not one event per campaign.
     */
    static final int BATCH = 10_000;

    /** Where, in {@code dir}, the watcher keeps the file as it last applied it. */
    static Path appliedCopyIn(final Path dir)
    {
        return dir.resolve("campaigns-file.applied.json");
    }

    private static final Logger LOG = LoggerFactory.getLogger(CampaignsFileWatcher.class);

    private final Path file;
    private final Duration interval;
    private final PacerPipeline pipeline;
    private final Path appliedCopy;
    private final AtomicLong reloads = new AtomicLong();
    private final AtomicLong rejections = new AtomicLong();
    private ScheduledExecutorService scheduler;
    /** Wakes the poller when the OS reports a write; null where it cannot. */
    private FileChangeAlarm alarm;
    /** The file as last read (modification time, size, inode): a poll reads it again only when this changes. */
    private FileStamp lastSeen;
    /**
     * The digest of the content last applied or rejected; null until it is taken by the watcher's
     * thread (after the first load, or with the baseline after a restart) and after a failed publish.
     */
    private byte[] lastDigest;
    /** The first load's content until its digest is taken, once the server is up. */
    private byte[] undigested;
    /** The start-up found the file as last applied and left the baseline ({@link #campaignFile}) to the watcher's thread. */
    private boolean baselinePending;
    /** The file as last read (or its applied copy): a re-read compares against it and parses only what changed. */
    private CampaignFile campaignFile = CampaignFile.empty();
    private CampaignsFilePreload preload;
    private boolean heldForJournalLogged;
    private boolean missingLogged;

    public CampaignsFileWatcher(final Path file, final Duration interval, final PacerPipeline pipeline)
    {
        this(file, interval, pipeline, null);
    }

    /**
     * @param appliedCopy where to keep a copy of the last file content applied (beside the
     *                    journal), so that after a restart an unchanged file changes nothing and
     *                    admin changes stand; null without a journal
     */
    public CampaignsFileWatcher(final Path file, final Duration interval, final PacerPipeline pipeline,
        final Path appliedCopy)
    {
        this(file, interval, pipeline, appliedCopy, null);
    }

    /** @param preload the file as read while the server started ({@link CampaignsFilePreload#start}), or null */
    CampaignsFileWatcher(final Path file, final Duration interval, final PacerPipeline pipeline, final Path appliedCopy,
        final CampaignsFilePreload preload)
    {
        this.file = file;
        this.interval = interval;
        this.pipeline = pipeline;
        this.appliedCopy = appliedCopy;
        this.preload = preload;
    }

    /**
     * Loads the file now, waiting until its updates are applied. A missing file is waited for.
     *
     * @throws InvalidDefinitionException if the file is invalid (start-up refuses a bad file)
     */
    public synchronized void loadInitial()
    {
        final FileStamp stamp = FileStamp.of(file);
        if (stamp != null && appliedCopyMatches())
        {
            // the recovered state already has all of it: nothing read into memory, parsed or diffed
            // here; the baseline (and its digest) is read by the watcher's thread once the server is
            // up. A write since the comparison is compared with that baseline when it is applied.
            lastSeen = stamp;
            baselinePending = true;
            reloads.incrementAndGet();
            LOG.info("campaigns file {} unchanged since it was last applied: nothing to apply", file);
            return;
        }
        final byte[] copy = loadAppliedCopy();
        final CampaignsFilePreload.Read early = preload == null || copy != null ? null : preload.takeIfUnchanged();
        preload = null;
        final byte[] content = early != null ? early.content() : read();
        if (content != null)
        {
            // its digest is left to the watcher's thread once the server is up
            apply(content, null, stamp, true, early);
        }
    }

    /** Whether the file is, byte for byte, the copy of it last applied (compared in small chunks). */
    private boolean appliedCopyMatches()
    {
        try
        {
            return appliedCopy != null && Files.isRegularFile(appliedCopy) && Files.mismatch(file, appliedCopy) == -1L;
        }
        catch (final IOException ex)
        {
            return false;
        }
    }

    /** Reads the copy last applied as the baseline; returns its bytes (even if they do not parse), or null if there are none. */
    private byte[] loadAppliedCopy()
    {
        if (appliedCopy == null || !Files.isRegularFile(appliedCopy))
        {
            return null;
        }
        byte[] copy = null;
        try
        {
            copy = WholeFile.read(appliedCopy);
            campaignFile = CampaignFile.empty().next(copy).file();
        }
        catch (final IOException | InvalidDefinitionException ex)
        {
            LOG.warn("cannot read {} ({}); applying the whole campaigns file", appliedCopy, ex.toString());
            campaignFile = CampaignFile.empty();
        }
        return copy;
    }

    /**
     * Writes the content about to be applied next to the applied copy (while the ring applies it:
     * at a million campaigns, 120 MB); null if no copy is kept or it could not be written.
     */
    private Path writeAppliedCopy(final byte[] content)
    {
        if (appliedCopy == null)
        {
            return null;
        }
        final Path temp = appliedCopy.resolveSibling(appliedCopy.getFileName() + ".tmp");
        try
        {
            Files.write(temp, content);
            return temp;
        }
        catch (final IOException ex)
        {
            LOG.warn("cannot keep a copy of the applied campaigns file in {}: {}", appliedCopy, ex.toString());
            return null;
        }
    }

    /** Makes the content written by {@link #writeAppliedCopy} the applied copy, once it has been applied. */
    private void keepAppliedCopy(final Path written)
    {
        if (written == null)
        {
            return;
        }
        try
        {
            Files.move(written, appliedCopy, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
        }
        catch (final IOException ex)
        {
            LOG.warn("cannot keep a copy of the applied campaigns file in {}: {}", appliedCopy, ex.toString());
        }
    }

    private static void deleteQuietly(final Path written)
    {
        try
        {
            if (written != null)
            {
                Files.deleteIfExists(written);
            }
        }
        catch (final IOException ex)
        {
            LOG.debug("cannot delete {}: {}", written, ex.toString());
        }
    }

    /** Starts polling. */
    public synchronized void start()
    {
        scheduler = Executors.newSingleThreadScheduledExecutor(PacerThreads.factory("pacer-campaigns-watcher"));
        // off the start-up path, before any poll: the first load's digest, or the baseline a start
        // with an unchanged file skipped, so that the first edit is as quick as the next ones (a
        // million campaigns: ~3 s of parsing)
        scheduler.execute(this::finishInitialLoad);
        scheduler.execute(this::loadPendingBaseline);
        scheduler.scheduleWithFixedDelay(this::poll, interval.toMillis(), interval.toMillis(), TimeUnit.MILLISECONDS);
        final ScheduledExecutorService polls = scheduler;
        alarm = FileChangeAlarm.start(file, () -> pollSoon(polls));
    }

    private void pollSoon(final ScheduledExecutorService polls)
    {
        try
        {
            polls.execute(this::poll);
        }
        catch (final RejectedExecutionException ex)
        {
            // closed
        }
    }

    /** The first load's digest, taken off the start-up path (120 MB at a million campaigns). */
    private synchronized void finishInitialLoad()
    {
        if (undigested != null)
        {
            if (lastDigest == null)
            {
                lastDigest = digest(undigested);
            }
            undigested = null;
        }
    }

    private synchronized void loadPendingBaseline()
    {
        if (baselinePending)
        {
            final long start = System.nanoTime();
            final byte[] copy = loadAppliedCopy();
            if (lastDigest == null && copy != null)
            {
                // a rewrite of the file with these same bytes then changes nothing
                lastDigest = digest(copy);
            }
            baselinePending = false;
            LOG.info("campaigns file {}: baseline of {} campaign(s) read from {} in {} ms", file, campaignFile.count(),
                appliedCopy, TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start));
        }
    }

    private synchronized void poll()
    {
        try
        {
            final FileStamp stamp = FileStamp.of(file);
            if (stamp != null && stamp.unchangedSince(lastSeen))
            {
                return;
            }
            final byte[] content = read();
            final byte[] digest = content == null ? null : digest(content);
            if (content != null && !sameAsLastSeen(stamp, digest))
            {
                if (pipeline.journalFailed())
                {
                    // applied now it would be lost at the restart the failure needs, and the
                    // baseline would say it was applied: the restart applies it instead
                    if (!heldForJournalLogged)
                    {
                        LOG.error("campaigns file {} changed, but the journal has failed: the change waits for a restart", file);
                        heldForJournalLogged = true;
                    }
                    return;
                }
                apply(content, digest, stamp, false);
            }
        }
        catch (final RuntimeException ex)
        {
            LOG.error("campaigns file {}: reload failed", file, ex);
        }
    }

    private byte[] read()
    {
        try
        {
            final byte[] content = WholeFile.read(file);
            missingLogged = false;
            return content;
        }
        catch (final NoSuchFileException ex)
        {
            if (!missingLogged)
            {
                LOG.warn("campaigns file {} does not exist (yet); watching for it", file);
                missingLogged = true;
            }
            return null;
        }
        catch (final IOException ex)
        {
            LOG.error("campaigns file {}: cannot read: {}", file, ex.toString());
            return null;
        }
    }

    /**
     * Whether the content whose digest this is is what was last applied or rejected (a rewrite with the same bytes,
     * or a re-read within the stamp's tick margin); if so, only the stamp moves on.
     */
    private boolean sameAsLastSeen(final FileStamp stamp, final byte[] digest)
    {
        if (Arrays.equals(digest, lastDigest))
        {
            lastSeen = stamp;
            return true;
        }
        return false;
    }

    /** SHA-256 of the content: what a rejected file is remembered by (only a good one's bytes are kept, in {@link #campaignFile}). */
    private static byte[] digest(final byte[] content)
    {
        return sha256().digest(content);
    }

    private static MessageDigest sha256()
    {
        try
        {
            return MessageDigest.getInstance("SHA-256");
        }
        catch (final NoSuchAlgorithmException ex)
        {
            throw new IllegalStateException("every JDK has SHA-256", ex);
        }
    }

    /**
     * @param digest the content's SHA-256 (null at the first load: {@link #finishInitialLoad} takes it)
     * @param stamp  the file's stamp taken before {@code content} was read, so that a write after the read is seen
     */
    private void apply(final byte[] content, final byte[] digest, final FileStamp stamp, final boolean initial)
    {
        apply(content, digest, stamp, initial, null);
    }

    /** @param early {@code content} as read against no earlier file while the server started, or null */
    private void apply(final byte[] content, final byte[] digest, final FileStamp stamp, final boolean initial,
        final CampaignsFilePreload.Read early)
    {
        lastSeen = stamp;
        lastDigest = digest;
        loadPendingBaseline();
        final CampaignFile.Change change;
        try
        {
            change = early != null ? early.changeOrThrow() : campaignFile.next(content);
        }
        catch (final InvalidDefinitionException ex)
        {
            rejections.incrementAndGet();
            if (initial)
            {
                throw new InvalidDefinitionException("campaigns file " + file + ": " + ex.field(),
                    ex.getMessage().substring(ex.field().length() + 2));
            }
            LOG.error("campaigns file {} rejected, last good state stays in force: {}", file, ex.getMessage());
            return;
        }
        campaignFile = change.file();
        final List<CampaignDefinition> changes = new ArrayList<>(change.changed());
        final List<CampaignDefinition> removed = new ArrayList<>();
        for (final CampaignDefinition d : change.removed())
        {
            if (d.status() != CampaignStatus.PAUSED)
            {
                removed.add(d.withStatus(CampaignStatus.PAUSED));
            }
        }
        removed.sort((a, b) -> Long.compareUnsigned(a.id(), b.id()));
        changes.addAll(removed);
        Path written = null;
        try
        {
            final List<CompletableFuture<?>> pending = new ArrayList<>(changes.size() / BATCH + 1);
            for (int from = 0; from < changes.size(); from += BATCH)
            {
                final List<CampaignDefinition> batch = changes.subList(from, Math.min(changes.size(), from + BATCH));
                pending.add(pipeline.submit(AdminCommand.updateAll(batch, changes.size() - from, pipeline.shardCount())));
            }
            written = writeAppliedCopy(content);
            CompletableFuture.allOf(pending.toArray(new CompletableFuture<?>[0])).orTimeout(30, TimeUnit.SECONDS).join();
        }
        catch (final RuntimeException ex)
        {
            // some of the change may not have been applied: the next look compares the file with the
            // copy last applied (or, without one, applies it whole) instead of with what was read now
            deleteQuietly(written);
            campaignFile = CampaignFile.empty();
            baselinePending = appliedCopy != null;
            lastSeen = null;
            lastDigest = null;
            throw ex;
        }
        keepAppliedCopy(written);
        if (digest == null)
        {
            undigested = content;
        }
        reloads.incrementAndGet();
        LOG.info("campaigns file {} {}: {} campaign(s), {} parsed, {} update(s) applied",
            file, initial ? "loaded" : "reloaded", campaignFile.count(), change.parsed(), changes.size());
    }

    /** Good loads and reloads applied. */
    public long reloads()
    {
        return reloads.get();
    }

    /** Files rejected as invalid. */
    public long rejections()
    {
        return rejections.get();
    }

    @Override
    public synchronized void close()
    {
        if (alarm != null)
        {
            alarm.close();
            alarm = null;
        }
        if (scheduler != null)
        {
            scheduler.shutdownNow();
            scheduler = null;
        }
    }
}
