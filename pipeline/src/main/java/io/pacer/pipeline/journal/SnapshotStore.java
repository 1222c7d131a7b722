package io.pacer.pipeline.journal;

import io.pacer.model.PacingPolicy;
import io.pacer.model.PacingShard;
import io.pacer.pipeline.SnapshotCommand;
import io.pacer.pipeline.journal.sbe.SnapshotDecoder;
import io.pacer.pipeline.journal.sbe.SnapshotEncoder;
import io.pacer.units.Units;
import org.agrona.ExpandableArrayBuffer;
import org.agrona.concurrent.UnsafeBuffer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.ByteArrayInputStream;
import java.io.DataInputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.util.Arrays;
import java.util.List;
import java.util.stream.Stream;
import java.util.zip.CRC32C;

/**
 * Snapshot files beside the journal: {@code snapshot-<covered sequence, 20 digits>.bin}, holding
 * the shard count and pacing parameters, the journal sequence they cover, each shard's state,
 * and a CRC32C of all that. Written to a temporary file, forced, then atomically renamed. The
 * layout is the {@code Snapshot} message of the journal's SBE schema ({@code pacer-journal.xml}),
 * written and read through its generated codecs; files of versions 2 and 3, written by hand
 * before the schema, are still read, so an upgrade never loses a snapshot the journal's
 * retention relies on.
 */
public final class SnapshotStore
{
    private static final Logger LOG = LoggerFactory.getLogger(SnapshotStore.class);
    private static final int MAGIC = 0x53524350; // "PCRS" little-endian
    /** 4: laid out by the SBE schema's {@code Snapshot} message, little-endian. */
    private static final int VERSION = 5;
    private static final int VERSION_4 = 4;
    /** Versions 2 and 3 were big-endian and written by hand; still read ({@link #readLegacy}). */
    private static final int VERSION_3 = 3;
    private static final int VERSION_2 = 2;

    /** A snapshot read back. */
    public record Loaded(Path file, long coveredSequence, byte[][] shardStates, int version)
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
            final byte[] bytes = encode(snapshot);
            final Path file = dir.resolve(String.format("snapshot-%020d.bin", snapshot.coveredSequence()));
            final Path temp = dir.resolve(file.getFileName() + ".tmp");
            try (FileChannel channel = FileChannel.open(temp, StandardOpenOption.CREATE, StandardOpenOption.WRITE,
                StandardOpenOption.TRUNCATE_EXISTING))
            {
                final ByteBuffer buffer = ByteBuffer.wrap(bytes);
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

    /** The file's bytes: the SBE {@code Snapshot} message, then a CRC32C of it. */
    private static byte[] encode(final SnapshotCommand snapshot)
    {
        final ExpandableArrayBuffer buffer = new ExpandableArrayBuffer(1 << 16);
        final SnapshotEncoder encoder = new SnapshotEncoder().wrap(buffer, 0)
            .magic(MAGIC).version(VERSION).shards(snapshot.shards()).coveredSequence(snapshot.coveredSequence());
        final SnapshotEncoder.ShardStatesEncoder states = encoder.shardStatesCount(snapshot.shards());
        for (int i = 0; i < snapshot.shards(); i++)
        {
            final byte[] state = snapshot.shardState(i);
            states.next().putState(state, 0, state.length);
        }
        final byte[] tunables = TunablesCodec.encode(snapshot.policy());
        encoder.putTunables(tunables, 0, tunables.length);
        final int length = encoder.encodedLength();
        final CRC32C crc = new CRC32C();
        crc.update(buffer.byteArray(), 0, length);
        buffer.putInt(length, (int)crc.getValue(), JournalFormat.ORDER);
        return Arrays.copyOf(buffer.byteArray(), length + 4);
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
                crc.update(all, 0, Math.max(0, all.length - 4));
                final Read read;
                if (all.length < 32)
                {
                    read = null;
                }
                else if (ByteBuffer.wrap(all).getInt() == MAGIC)
                {
                    // big-endian: a version 2 or 3 file
                    read = (int)crc.getValue() == ByteBuffer.wrap(all, all.length - 4, 4).getInt() ? readLegacy(all) : null;
                }
                else
                {
                    read = (int)crc.getValue() == new UnsafeBuffer(all).getInt(all.length - 4, JournalFormat.ORDER) ?
                        readCurrent(all) : null;
                }
                if (read == null)
                {
                    LOG.warn("snapshot {} is damaged; trying an older one", file);
                    continue;
                }
                if (read.shards() != shards || !read.policy().equals(policy))
                {
                    LOG.warn("snapshot {} was taken with {} shard(s) and {}; ignoring it", file, read.shards(), read.policy());
                    continue;
                }
                return new Loaded(file, read.coveredSequence(), read.states(), read.version());
            }
            catch (final IOException | RuntimeException ex)
            {
                LOG.warn("snapshot {} cannot be read ({}); trying an older one", file, ex.toString());
            }
        }
        return null;
    }

    /** What a snapshot file holds, before it is checked against the running configuration. */
    private record Read(int shards, PacingPolicy policy, long coveredSequence, byte[][] states, int version)
    {
    }

    /** A version 4 file, through the generated decoder; null if it is not one. */
    private static Read readCurrent(final byte[] all)
    {
        final SnapshotDecoder decoder = new SnapshotDecoder()
            .wrap(new UnsafeBuffer(all, 0, all.length - 4), 0, SnapshotDecoder.BLOCK_LENGTH, SnapshotDecoder.SCHEMA_VERSION);
        if (decoder.magic() != MAGIC || (decoder.version() != VERSION && decoder.version() != VERSION_4))
        {
            return null;
        }
        final SnapshotDecoder.ShardStatesDecoder group = decoder.shardStates();
        final byte[][] states = new byte[group.count()][];
        for (int i = 0; i < states.length; i++)
        {
            group.next();
            states[i] = new byte[group.stateLength()];
            group.getState(states[i], 0, states[i].length);
        }
        final byte[] tunables = new byte[decoder.tunablesLength()];
        decoder.getTunables(tunables, 0, tunables.length);
        final PacingPolicy policy = TunablesCodec.decode(tunables);
        return new Read(decoder.shards(), policy, decoder.coveredSequence(), states, decoder.version());
    }

    /** A version 2 or 3 file (big-endian, as {@code DataOutputStream} wrote it); null if neither. */
    private static Read readLegacy(final byte[] all) throws IOException
    {
        final DataInputStream in = new DataInputStream(new ByteArrayInputStream(all));
        in.readInt(); // magic, checked
        final int version = in.readInt();
        if (version != VERSION_3 && version != VERSION_2)
        {
            return null;
        }
        final int shards = in.readInt();
        final PacingPolicy policy;
        if (version == VERSION_2)
        {
            policy = new PacingPolicy(Units.durationMillis(in.readLong()), Units.durationMillis(in.readLong()),
                Units.durationMillis(in.readLong()));
        }
        else
        {
            final byte[] tunables = new byte[in.readInt()];
            in.readFully(tunables);
            policy = TunablesCodec.decode(tunables);
        }
        final long covered = in.readLong();
        final byte[][] states = new byte[shards][];
        for (int i = 0; i < shards; i++)
        {
            states[i] = new byte[in.readInt()];
            in.readFully(states[i]);
        }
        return new Read(shards, policy, covered, states, version);
    }

    /** Restores each shard from the snapshot. */
    public static void restore(final Loaded snapshot, final List<PacingShard> shards)
    {
        for (int i = 0; i < shards.size(); i++)
        {
            try
            {
                // before version 5, campaign definitions were kept as JSON
                shards.get(i).restoreFrom(new DataInputStream(new ByteArrayInputStream(snapshot.shardStates()[i])),
                    snapshot.version() < VERSION);
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
