package io.pacer.server.config;

import com.google.errorprone.annotations.Immutable;

import java.net.InetAddress;
import java.net.UnknownHostException;
import java.util.List;

/**
 * The source addresses a listener accepts connections from, {@code pacer.gateway.allow} or
 * {@code pacer.admin.allow}: CIDR blocks such as {@code 10.1.0.0/16} or {@code fd00::/8}, or single
 * addresses. Empty: every source. Validated once, here: every entry must be an IP literal (a host
 * name would need DNS at start-up, and could change under us) with a prefix that fits it.
 *
 * @param key    the key it was read from, for messages
 * @param blocks the blocks, as given
 */
@Immutable
public record SourceAllowlist(String key, @SuppressWarnings("Immutable") List<String> blocks)
{
    public SourceAllowlist
    {
        blocks = List.copyOf(blocks);
        for (final String block : blocks)
        {
            parse(key, block);
        }
    }

    /** Every source allowed. */
    public static SourceAllowlist everyone(final String key)
    {
        return new SourceAllowlist(key, List.of());
    }

    /** One block: its address and prefix length. */
    public record Block(InetAddress address, int prefixLength)
    {
    }

    /** The blocks, parsed. */
    public List<Block> parsed()
    {
        return blocks.stream().map(block -> parse(key, block)).toList();
    }

    private static Block parse(final String key, final String block)
    {
        final int slash = block.indexOf('/');
        final String literal = (slash < 0 ? block : block.substring(0, slash)).trim();
        if (literal.isEmpty() || !literal.chars().allMatch(c -> Character.digit(c, 16) >= 0 || c == '.' || c == ':'))
        {
            throw new InvalidConfigException(key, "\"" + block + "\" is not an IP address or CIDR block (such as 10.0.0.0/8)");
        }
        final InetAddress address;
        try
        {
            address = InetAddress.getByName(literal);
        }
        catch (final UnknownHostException ex)
        {
            throw new InvalidConfigException(key, "\"" + block + "\" is not an IP address or CIDR block (such as 10.0.0.0/8)");
        }
        final int bits = address.getAddress().length * 8;
        final int prefix;
        try
        {
            prefix = slash < 0 ? bits : Integer.parseInt(block.substring(slash + 1).trim());
        }
        catch (final NumberFormatException ex)
        {
            throw new InvalidConfigException(key, "\"" + block + "\": the prefix length after / must be a number");
        }
        if (prefix < 0 || prefix > bits)
        {
            throw new InvalidConfigException(key, "\"" + block + "\": the prefix length must be between 0 and " + bits);
        }
        return new Block(address, prefix);
    }
}
