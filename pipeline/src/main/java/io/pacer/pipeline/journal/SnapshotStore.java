package io.pacer.pipeline.journal;

import io.pacer.model.PacingPolicy;
import io.pacer.model.PacingShard;
import io.pacer.pipeline.SnapshotCommand;
import io.pacer.pipeline.journal.sbe.SnapshotDecoder;
import io.pacer.pipeline.journal.sbe.SnapshotEncoder;
import io.pacer.units.Units;
import org.agrona.DirectBuffer;
import org.agrona.ExpandableArrayBuffer;
import org.agrona.concurrent.UnsafeBuffer;
import org.agrona.io.DirectBufferDataInput;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.ByteArrayInputStream;
import java.io.DataInputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
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
    /** 5: laid out by the SBE schema's {@code Snapshot} message, little-endian, campaign definitions in binary. */
    private static final int VERSION = 5;
    /** 4: the same layout with campaign definitions as JSON in the shard states. */
    private static final int VERSION_4 = 4;
    /** Versions 2 and 3 were big-endian and written by hand; still read ({@link #readLegacy}). */
    private static final int VERSION_3 = 3;
    private static final int VERSION_2 = 2;

    /**
     * A snapshot read back; its shard states are views of the file, mapped, not copies (a million
     * campaigns are 230 MB, and copying them onto the heap was most of a restart).
     */
    public record Loaded(Path file, long coveredSequence, DirectBuffer[] shardStates, int version)
    {
        /** The shard states as arrays (copies). */
        public byte[][] shardStateBytes()
        {
            final byte[][] bytes = new byte[shardStates.length][];
            for (int i = 0; i < bytes.length; i++)
            {
                bytes[i] = new byte[shardStates[i].capacity()];
                shardStates[i].getBytes(0, bytes[i]);
            }
            return bytes;
        }
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
                final ByteBuffer all = map(file);
                final int length = all.capacity();
                final CRC32C crc = new CRC32C();
                crc.update(all.duplicate().limit(Math.max(0, length - 4)));
                final Read read;
                if (length < 32)
                {
                    read = null;
                }
                else if (all.getInt(0) == MAGIC)
                {
                    // big-endian: a version 2 or 3 file
                    final byte[] bytes = new byte[length];
                    all.get(0, bytes);
                    read = (int)crc.getValue() == all.getInt(length - 4) ? readLegacy(bytes) : null;
                }
                else
                {
                    final UnsafeBuffer buffer = new UnsafeBuffer(all);
                    read = (int)crc.getValue() == buffer.getInt(length - 4, JournalFormat.ORDER) ? readCurrent(buffer) : null;
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
    private record Read(int shards, PacingPolicy policy, long coveredSequence, DirectBuffer[] states, int version)
    {
    }

    /** A version 4 or 5 file, through the generated decoder, its states left in place; null if it is neither. */
    private static Read readCurrent(final UnsafeBuffer all)
    {
        final SnapshotDecoder decoder = new SnapshotDecoder()
            .wrap(new UnsafeBuffer(all, 0, all.capacity() - 4), 0, SnapshotDecoder.BLOCK_LENGTH, SnapshotDecoder.SCHEMA_VERSION);
        if (decoder.magic() != MAGIC || (decoder.version() != VERSION && decoder.version() != VERSION_4))
        {
            return null;
        }
        final SnapshotDecoder.ShardStatesDecoder group = decoder.shardStates();
        final DirectBuffer[] states = new DirectBuffer[group.count()];
        for (int i = 0; i < states.length; i++)
        {
            group.next();
            states[i] = new UnsafeBuffer(0, 0);
            group.wrapState(states[i]);
        }
        final byte[] tunables = new byte[decoder.tunablesLength()];
        decoder.getTunables(tunables, 0, tunables.length);
        final PacingPolicy policy = TunablesCodec.decode(tunables);
        return new Read(decoder.shards(), policy, decoder.coveredSequence(), states, decoder.version());
    }

    /** The file, mapped read-only (the mapping lives as long as the buffer is reachable). */
    private static ByteBuffer map(final Path file) throws IOException
    {
        try (FileChannel channel = FileChannel.open(file, StandardOpenOption.READ))
        {
            if (channel.size() > Integer.MAX_VALUE)
            {
                throw new IOException(file + " is larger than 2 GB");
            }
            return channel.map(FileChannel.MapMode.READ_ONLY, 0, channel.size());
        }
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
        final DirectBuffer[] states = new DirectBuffer[shards];
        for (int i = 0; i < shards; i++)
        {
            final byte[] state = new byte[in.readInt()];
            in.readFully(state);
            states[i] = new UnsafeBuffer(state);
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
                // big-endian, as DataOutputStream wrote it; before version 5, campaign definitions were kept as JSON
                final DirectBufferDataInput in = new DirectBufferDataInput(snapshot.shardStates()[i]);
                in.byteOrder(ByteOrder.BIG_ENDIAN);
                shards.get(i).restoreFrom(in, snapshot.version() < VERSION);
            }
            catch (final IOException ex)
            {
                throw new UncheckedIOException(ex);
            }
        }
    }

    /**
     * Deletes snapshot files a crash or a stop cut short while they were written ({@code .tmp}: never
     * renamed into place, so never read); a million campaigns' is 230 MB.
     */
    public static void deleteUnfinished(final Path dir)
    {
        if (!Files.isDirectory(dir))
        {
            return;
        }
        try (Stream<Path> files = Files.list(dir))
        {
            for (final Path file : files.filter(p -> p.getFileName().toString().matches("snapshot-\\d{20}\\.bin\\.tmp")).toList())
            {
                LOG.info("deleting {}: a snapshot cut short while it was written", file);
                Files.deleteIfExists(file);
            }
        }
        catch (final IOException ex)
        {
            LOG.warn("cannot delete unfinished snapshots in {}: {}", dir, ex.toString());
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
