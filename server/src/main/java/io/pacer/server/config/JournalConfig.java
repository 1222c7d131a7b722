package io.pacer.server.config;

import com.google.errorprone.annotations.Immutable;
import io.pacer.pipeline.journal.JournalWriter.FsyncPolicy;

import java.nio.file.Path;
import java.time.Duration;
import java.util.Locale;

/**
 * The journal and its snapshots, {@code pacer.journal.*}, validated once, here.
 *
 * @param enabled           false: nothing is journaled, nothing recovered, no snapshots
 * @param dir               where segments and snapshots live
 * @param fsync             when the journal is forced to the device
 * @param fsyncInterval     how often {@link FsyncPolicy#PERIODIC} forces it
 * @param segmentBytes      a new segment file starts past this size
 * @param truncateCorrupt   corruption before the tail: cut the journal there (true) or stop start-up
 * @param snapshotInterval  how often every shard's state is snapshotted; zero: never
 * @param retainCovered     keep segments a snapshot covers (true), or delete them after it
 */
@Immutable
public record JournalConfig(
    boolean enabled, Path dir, FsyncPolicy fsync, Duration fsyncInterval, long segmentBytes, boolean truncateCorrupt,
    Duration snapshotInterval, boolean retainCovered)
{
    static final String PREFIX = "pacer.journal.";

    public JournalConfig
    {
        if (dir == null)
        {
            throw new InvalidConfigException(PREFIX + "dir", "must not be empty");
        }
        Check.positive(PREFIX + "fsync-interval", fsyncInterval);
        Check.bytes(PREFIX + "segment-size", segmentBytes, 1 << 20, 1L << 30);
        Check.nonNegative(PREFIX + "snapshot-interval", snapshotInterval);
    }

    /** Whether periodic snapshots are taken. */
    public boolean snapshots()
    {
        return enabled && !snapshotInterval.isZero();
    }

    static JournalConfig read(final ConfigReader in)
    {
        return new JournalConfig(
            in.bool(PREFIX + "enabled"),
            in.path(PREFIX + "dir"),
            in.parsed(PREFIX + "fsync", JournalConfig::fsync),
            in.duration(PREFIX + "fsync-interval"),
            in.bytes(PREFIX + "segment-size"),
            in.bool(PREFIX + "truncate-corrupt"),
            in.duration(PREFIX + "snapshot-interval"),
            in.parsed(PREFIX + "retention", JournalConfig::retainCovered));
    }

    private static FsyncPolicy fsync(final String name)
    {
        return switch (name.toLowerCase(Locale.ROOT))
        {
            case "periodic" -> FsyncPolicy.PERIODIC;
            case "batch" -> FsyncPolicy.BATCH;
            case "never" -> FsyncPolicy.NEVER;
            default -> throw new IllegalArgumentException("must be periodic, batch or never, was \"" + name + "\"");
        };
    }

    private static boolean retainCovered(final String retention)
    {
        return switch (retention)
        {
            case "keep" -> true;
            case "delete-covered" -> false;
            default -> throw new IllegalArgumentException("must be keep or delete-covered, was \"" + retention + "\"");
        };
    }
}
