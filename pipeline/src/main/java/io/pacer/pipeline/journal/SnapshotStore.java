package io.pacer.pipeline.journal;

import io.pacer.model.PacingPolicy;
import io.pacer.model.PacingShard;
import io.pacer.pipeline.SnapshotCommand;
import io.pacer.units.Units;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.util.List;
import java.util.stream.Stream;
import java.util.zip.CRC32C;

/**
 * Snapshot files beside the journal: {@code snapshot-<covered sequence, 20 digits>.bin}, holding
 * the shard count and pacing parameters, the journal sequence they cover, each shard's state,
 * and a CRC32C of all that. Written to a temporary file, forced, then atomically renamed.
 */
public final class SnapshotStore
{
    private static final Logger LOG = LoggerFactory.getLogger(SnapshotStore.class);
    private static final int MAGIC = 0x53524350; // "PCRS" little-endian
    /** 3: the pacing tunables by name ({@link TunablesCodec}). 2 (still read): three fixed longs. */
    private static final int VERSION = 3;
    private static final int VERSION_2 = 2;

    /** A snapshot read back. */
    public record Loaded(Path file, long coveredSequence, byte[][] shardStates)
    {
    }

    private SnapshotStore()
    {
    }

    /** Writes the snapshot atomically; returns its file. */
    public static Path write(final Path dir, final SnapshotCommand snapshot)
    {
        try
        {
            final ByteArrayOutputStream bytes = new ByteArrayOutputStream();
            final DataOutputStream out = new DataOutputStream(bytes);
            out.writeInt(MAGIC);
            out.writeInt(VERSION);
            out.writeInt(snapshot.shards());
            final byte[] tunables = TunablesCodec.encode(snapshot.policy());
            out.writeInt(tunables.length);
            out.write(tunables);
            out.writeLong(snapshot.coveredSequence());
            for (int i = 0; i < snapshot.shards(); i++)
            {
                out.writeInt(snapshot.shardState(i).length);
                out.write(snapshot.shardState(i));
            }
            final CRC32C crc = new CRC32C();
            crc.update(bytes.toByteArray());
            out.writeInt((int)crc.getValue());
            final Path file = dir.resolve(String.format("snapshot-%020d.bin", snapshot.coveredSequence()));
            final Path temp = dir.resolve(file.getFileName() + ".tmp");
            try (FileChannel channel = FileChannel.open(temp, StandardOpenOption.CREATE, StandardOpenOption.WRITE,
                StandardOpenOption.TRUNCATE_EXISTING))
            {
                final ByteBuffer buffer = ByteBuffer.wrap(bytes.toByteArray());
                while (buffer.hasRemaining())
                {
                    channel.write(buffer);
                }
                channel.force(true);
            }
            Files.move(temp, file, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
            try (FileChannel directory = FileChannel.open(dir, StandardOpenOption.READ))
            {
                directory.force(true);
            }
            catch (final IOException ignored)
            {
                // not every file system lets a directory be forced
            }
            return file;
        }
        catch (final IOException ex)
        {
            throw new UncheckedIOException("cannot write snapshot in " + dir, ex);
        }
    }

    /** Snapshot files, newest (highest covered sequence) first. */
    public static List<Path> files(final Path dir)
    {
        if (!Files.isDirectory(dir))
        {
            return List.of();
        }
        try (Stream<Path> files = Files.list(dir))
        {
            return files.filter(p -> p.getFileName().toString().matches("snapshot-\\d{20}\\.bin"))
                .sorted(java.util.Comparator.reverseOrder()).toList();
        }
        catch (final IOException ex)
        {
            throw new UncheckedIOException(ex);
        }
    }


    private static PacingPolicy readTunables(final DataInputStream in) throws IOException
    {
        final byte[] tunables = new byte[in.readInt()];
        in.readFully(tunables);
        return TunablesCodec.decode(ByteBuffer.wrap(tunables).order(JournalFormat.ORDER));
    }
    /**
     * The newest snapshot that is whole (CRC) and was taken with these shards and pacing
     * parameters; older or damaged ones are skipped with a warning. Null if there is none.
     */
    public static Loaded newestValid(final Path dir, final int shards, final PacingPolicy policy)
    {
        for (final Path file : files(dir))
        {
            try
            {
                final byte[] all = Files.readAllBytes(file);
                final CRC32C crc = new CRC32C();
                crc.update(all, 0, all.length - 4);
                final DataInputStream in = new DataInputStream(new ByteArrayInputStream(all));
                final int version;
                if (all.length < 48 || (int)crc.getValue() != ByteBuffer.wrap(all, all.length - 4, 4).getInt() ||
                    in.readInt() != MAGIC || ((version = in.readInt()) != VERSION && version != VERSION_2))
                {
                    LOG.warn("snapshot {} is damaged; trying an older one", file);
                    continue;
                }
                final int fileShards = in.readInt();
                final PacingPolicy filePolicy = version == VERSION_2 ?
                    new PacingPolicy(Units.durationMillis(in.readLong()), Units.durationMillis(in.readLong()),
                        Units.durationMillis(in.readLong())) :
                    readTunables(in);
                if (fileShards != shards || !filePolicy.equals(policy))
                {
                    LOG.warn("snapshot {} was taken with {} shard(s) and {}; ignoring it", file, fileShards, filePolicy);
                    continue;
                }
                final long covered = in.readLong();
                final byte[][] states = new byte[shards][];
                for (int i = 0; i < shards; i++)
                {
                    states[i] = new byte[in.readInt()];
                    in.readFully(states[i]);
                }
                return new Loaded(file, covered, states);
            }
            catch (final IOException | RuntimeException ex)
            {
                LOG.warn("snapshot {} cannot be read ({}); trying an older one", file, ex.toString());
            }
        }
        return null;
    }

    /** Restores each shard from the snapshot. */
    public static void restore(final Loaded snapshot, final List<PacingShard> shards)
    {
        for (int i = 0; i < shards.size(); i++)
        {
            try
            {
                shards.get(i).restoreFrom(new DataInputStream(new ByteArrayInputStream(snapshot.shardStates()[i])));
            }
            catch (final IOException ex)
            {
                throw new UncheckedIOException(ex);
            }
        }
    }

    /** Deletes all but the newest two snapshots (they are derived from the journal). */
    public static void pruneSnapshots(final Path dir)
    {
        try
        {
            final List<Path> snapshots = files(dir);
            for (int i = 2; i < snapshots.size(); i++)
            {
                Files.delete(snapshots.get(i));
            }
        }
        catch (final IOException ex)
        {
            throw new UncheckedIOException("cannot prune snapshots in " + dir, ex);
        }
    }

    /** Retention: deletes the journal segments whose every record the snapshot covers. */
    public static void retire(final Path dir, final long coveredSequence)
    {
        final List<Path> segments = JournalReader.segments(dir);
        try
        {
            for (int i = 0; i + 1 < segments.size(); i++)
            {
                if (JournalReader.firstSequence(segments.get(i + 1)) <= coveredSequence)
                {
                    Files.delete(segments.get(i));
                    LOG.info("journal retention: deleted {} (covered by snapshot up to {})", segments.get(i), coveredSequence);
                }
            }
        }
        catch (final IOException ex)
        {
            throw new UncheckedIOException("journal retention failed in " + dir, ex);
        }
    }
}
