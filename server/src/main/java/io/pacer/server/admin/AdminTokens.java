package io.pacer.server.admin;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;
import java.nio.file.attribute.FileTime;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The tokens of {@code pacer.admin.tokens-file}, each with its role, as the file was when last
 * read. The file is looked at again, at most once a second, when a request needs it: a changed
 * modification time or size re-reads it. A file that no longer parses (or went missing) is
 * refused with an error, and the tokens read before stay valid, so that a half-written file
 * never locks everyone out nor lets anyone in. One owner: the admin event loop.
 */
final class AdminTokens
{
    /** One token and what it may do. */
    record Token(BearerTokenCheck.Role role, byte[] secret)
    {
    }

    private static final Logger LOG = LoggerFactory.getLogger(AdminTokens.class);
    private static final long LOOK_EVERY_NANOS = 1_000_000_000L;

    private final Path file;
    private List<Token> tokens;
    private FileTime modified;
    private long size;
    private long lookedAtNanos;
    /** Written by the admin event loop, read by metrics. */
    private final AtomicLong reloadFailures = new AtomicLong();

    /** Reads the file now: at start-up, a bad file stops the server. */
    AdminTokens(final Path file)
    {
        this.file = file;
        final BasicFileAttributes attributes = attributes();
        this.tokens = parse(file, read());
        this.modified = attributes.lastModifiedTime();
        this.size = attributes.size();
        this.lookedAtNanos = System.nanoTime();
    }

    /** The tokens now valid, re-reading the file first if it changed. */
    List<Token> current()
    {
        final long now = System.nanoTime();
        if (now - lookedAtNanos >= LOOK_EVERY_NANOS)
        {
            lookedAtNanos = now;
            reloadIfChanged();
        }
        return tokens;
    }

    long reloadFailures()
    {
        return reloadFailures.get();
    }

    private void reloadIfChanged()
    {
        try
        {
            final BasicFileAttributes attributes = Files.readAttributes(file, BasicFileAttributes.class);
            if (attributes.lastModifiedTime().equals(modified) && attributes.size() == size)
            {
                return;
            }
            tokens = parse(file, Files.readAllLines(file, StandardCharsets.UTF_8));
            modified = attributes.lastModifiedTime();
            size = attributes.size();
            LOG.info("admin token file {} re-read: {} token(s)", file,
                tokens.size());
        }
        catch (final IOException | IllegalArgumentException ex)
        {
            reloadFailures.incrementAndGet();
            LOG.error(
                "admin token file {} could not be re-read ({}); the tokens read before stay valid", file, ex.getMessage());
        }
    }

    private BasicFileAttributes attributes()
    {
        try
        {
            return Files.readAttributes(file, BasicFileAttributes.class);
        }
        catch (final IOException ex)
        {
            throw new IllegalArgumentException("cannot read " + file + ": " + ex.getMessage(), ex);
        }
    }

    private List<String> read()
    {
        try
        {
            return Files.readAllLines(file, StandardCharsets.UTF_8);
        }
        catch (final IOException ex)
        {
            throw new IllegalArgumentException("cannot read " + file + ": " + ex.getMessage(), ex);
        }
    }

    /**
     * @throws IllegalArgumentException naming the line of a line that is not {@code read|write TOKEN}
     */
    static List<Token> parse(final Path file, final List<String> lines)
    {
        final List<Token> tokens = new ArrayList<>();
        for (int i = 0; i < lines.size(); i++)
        {
            final String line = lines.get(i).strip();
            if (line.isEmpty() || line.startsWith("#"))
            {
                continue;
            }
            final String[] parts = line.split("\\s+");
            final BearerTokenCheck.Role role = "read".equals(parts[0]) ? BearerTokenCheck.Role.READ :
                "write".equals(parts[0]) ? BearerTokenCheck.Role.WRITE : null;
            if (parts.length != 2 || role == null || parts[1].length() < 16)
            {
                throw new IllegalArgumentException(file + " line " + (i + 1) +
                    ": must be \"read TOKEN\" or \"write TOKEN\", with a token of 16 characters or more");
            }
            tokens.add(new Token(role, parts[1].getBytes(StandardCharsets.UTF_8)));
        }
        return List.copyOf(tokens);
    }
}
