package io.pacer.server.config;

import com.google.errorprone.annotations.Immutable;

import java.nio.file.Path;
import java.time.Duration;

/**
 * The watched campaigns file, {@code pacer.campaigns.*}, validated once, here.
 *
 * @param file         the file, or null when none is configured ({@link #watched()} is false)
 * @param pollInterval how often the watcher looks at it
 */
@Immutable
public record CampaignsConfig(Path file, Duration pollInterval)
{
    static final String PREFIX = "pacer.campaigns.";

    public CampaignsConfig
    {
        Check.positive(PREFIX + "poll-interval", pollInterval);
    }

    /** Whether a campaigns file is configured. */
    public boolean watched()
    {
        return file != null;
    }

    static CampaignsConfig read(final ConfigReader in)
    {
        return new CampaignsConfig(in.path(PREFIX + "file"), in.duration(PREFIX + "poll-interval"));
    }
}
