package io.pacer.server.audit;

import com.typesafe.config.Config;
import com.typesafe.config.ConfigException;
import com.typesafe.config.ConfigFactory;
import io.pacer.model.CampaignDefinition;
import io.pacer.model.CampaignDefinitionParser;
import io.pacer.model.InvalidDefinitionException;
import io.pacer.model.PacingMode;
import io.pacer.model.PacingPolicy;
import io.pacer.units.Units;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;

/**
 * What {@code pacer replay --what-if} changes: pacing tunables under the server's own config keys
 * ({@code pacing.replan-interval=5s}, {@code pacing.reservation-ttl}, {@code pacing.notice-dedupe-window}),
 * every campaign's mode ({@code campaign.pacing=EVEN}), and with {@code --what-if-campaign FILE}
 * whole definitions: a campaign in the file replaces every recorded definition of the same id.
 */
public final class WhatIfChange
{
    /** A what-if setting that cannot apply: bad usage, named. */
    public static final class Invalid extends IllegalArgumentException
    {
        private static final long serialVersionUID = 1L;

        Invalid(final String message)
        {
            super(message);
        }

        Invalid(final String message, final Throwable cause)
        {
            super(message, cause);
        }
    }

    private static final Set<String> KEYS = Set.of("pacing.reservation-ttl", "pacing.replan-interval",
        "pacing.notice-dedupe-window", "campaign.pacing");

    private final Config settings;
    private final Map<Long, CampaignDefinition> campaigns;
    private final String description;

    private WhatIfChange(final Config settings, final Map<Long, CampaignDefinition> campaigns, final String description)
    {
        this.settings = settings;
        this.campaigns = campaigns;
        this.description = description;
    }

    /**
     * Parses the options.
     *
     * @param settings     {@code key=value} settings in the config file's syntax
     * @param campaignFile a campaigns file ({@code operations.md}'s shape), or null
     * @throws Invalid naming a bad setting or campaign
     */
    public static WhatIfChange parse(final List<String> settings, final Path campaignFile) throws IOException
    {
        Config config = ConfigFactory.empty();
        for (final String setting : settings)
        {
            final Config one;
            try
            {
                one = ConfigFactory.parseString(setting);
            }
            catch (final ConfigException ex)
            {
                throw new Invalid("--what-if '" + setting + "': " + ex.getMessage(), ex);
            }
            for (final Map.Entry<String, ?> entry : one.entrySet())
            {
                if (!KEYS.contains(entry.getKey()))
                {
                    throw new Invalid("--what-if: unknown setting \"" + entry.getKey() + "\"; one of " +
                        new java.util.TreeSet<>(KEYS));
                }
            }
            config = one.withFallback(config);
        }
        final Map<Long, CampaignDefinition> campaigns = new TreeMap<>(Long::compareUnsigned);
        if (campaignFile != null)
        {
            try
            {
                for (final CampaignDefinition d : CampaignDefinitionParser.parseCampaignsFile(Files.readAllBytes(campaignFile)))
                {
                    campaigns.put(d.id(), d);
                }
            }
            catch (final InvalidDefinitionException ex)
            {
                throw new Invalid("--what-if-campaign " + campaignFile + ": " + ex.getMessage(), ex);
            }
        }
        final WhatIfChange change = new WhatIfChange(config, campaigns, String.join(" ", settings) +
            (campaignFile == null ? "" : (settings.isEmpty() ? "" : " ") + "campaigns from " + campaignFile));
        for (final String key : List.of("pacing.reservation-ttl", "pacing.replan-interval", "pacing.notice-dedupe-window"))
        {
            try
            {
                change.millis(key, 0);
            }
            catch (final ConfigException ex)
            {
                throw new Invalid("--what-if: " + ex.getMessage(), ex);
            }
        }
        change.mode();
        return change;
    }

    /** The recorded policy with this change's tunables. */
    public PacingPolicy policy(final PacingPolicy recorded)
    {
        try
        {
            final long ttl = millis("pacing.reservation-ttl", recorded.reservationTtlMillis());
            return new PacingPolicy(Units.durationMillis(ttl),
                Units.durationMillis(millis("pacing.replan-interval", recorded.replanIntervalMillis())),
                Units.durationMillis(millis("pacing.notice-dedupe-window", settings.hasPath("pacing.reservation-ttl") &&
                    !settings.hasPath("pacing.notice-dedupe-window") ? 2 * ttl : recorded.noticeDedupeWindowMillis())));
        }
        catch (final ConfigException ex)
        {
            throw new Invalid("--what-if: " + ex.getMessage(), ex);
        }
        catch (final IllegalArgumentException ex)
        {
            throw new Invalid("--what-if: " + ex.getMessage() + " (recorded: " + recorded.tunables() + ")", ex);
        }
    }

    private long millis(final String key, final long recorded)
    {
        return settings.hasPath(key) ? settings.getDuration(key, TimeUnit.MILLISECONDS) : recorded;
    }

    private PacingMode mode()
    {
        if (!settings.hasPath("campaign.pacing"))
        {
            return null;
        }
        final String mode = settings.getString("campaign.pacing");
        try
        {
            return PacingMode.valueOf(mode);
        }
        catch (final IllegalArgumentException ex)
        {
            throw new Invalid("--what-if: campaign.pacing must be one of " + List.of(PacingMode.values()) +
                ", was " + mode, ex);
        }
    }

    /** The definition the what-if replay applies in place of {@code recorded}. */
    public CampaignDefinition definition(final CampaignDefinition recorded)
    {
        final CampaignDefinition replaced = campaigns.getOrDefault(recorded.id(), recorded);
        final PacingMode mode = mode();
        return mode == null ? replaced : replaced.withPacing(mode);
    }

    /** The change as given on the command line. */
    public String description()
    {
        return description;
    }
}
