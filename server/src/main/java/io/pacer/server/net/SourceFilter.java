package io.pacer.server.net;

import io.netty.handler.ipfilter.IpFilterRuleType;
import io.netty.handler.ipfilter.IpSubnetFilterRule;
import io.pacer.server.config.SourceAllowlist;

import java.net.InetSocketAddress;
import java.net.SocketAddress;
import java.util.List;

/**
 * Decides, at accept and before anything is read, whether a connection's source is on a
 * listener's {@link SourceAllowlist}. The CIDR matching is Netty's {@link IpSubnetFilterRule}.
 */
public final class SourceFilter
{
    private final IpSubnetFilterRule[] rules;

    public SourceFilter(final SourceAllowlist allowlist)
    {
        final List<SourceAllowlist.Block> blocks = allowlist.parsed();
        this.rules = new IpSubnetFilterRule[blocks.size()];
        for (int i = 0; i < rules.length; i++)
        {
            rules[i] = new IpSubnetFilterRule(
                blocks.get(i).address(), blocks.get(i).prefixLength(), IpFilterRuleType.ACCEPT);
        }
    }

    /** Whether a connection from {@code remote} may stay open. */
    public boolean allows(final SocketAddress remote)
    {
        if (rules.length == 0)
        {
            return true;
        }
        if (!(remote instanceof InetSocketAddress address))
        {
            return false;
        }
        for (final IpSubnetFilterRule rule : rules)
        {
            if (rule.matches(address))
            {
                return true;
            }
        }
        return false;
    }
}
