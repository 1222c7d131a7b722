package io.pacer.pipeline;

import com.lmax.disruptor.BlockingWaitStrategy;
import com.lmax.disruptor.BusySpinWaitStrategy;
import com.lmax.disruptor.SleepingWaitStrategy;
import com.lmax.disruptor.WaitStrategy;
import com.lmax.disruptor.YieldingWaitStrategy;

import java.util.List;
import java.util.Locale;

/**
 * The wait strategies {@code pacer.pipeline.wait-strategy} may name.
 * <ul>
 *   <li>{@code blocking} (default): handlers sleep on a condition; costs no CPU while idle and
 *       behaves on a shared 2-core host.</li>
 *   <li>{@code sleeping}: spin, then yield, then park briefly; producers never signal.</li>
 *   <li>{@code yielding}: spin then yield; low latency, one busy core per handler.</li>
 *   <li>{@code busy-spin}: lowest latency; only with a spare physical core per handler.</li>
 * </ul>
 */
public final class WaitStrategies
{
    /** Accepted names. */
    public static final List<String> NAMES = List.of("blocking", "sleeping", "yielding", "busy-spin");

    private WaitStrategies()
    {
    }

    /** @throws IllegalArgumentException naming the accepted values */
    public static WaitStrategy fromName(final String name)
    {
        return switch (name.toLowerCase(Locale.ROOT))
        {
            case "blocking" -> new BlockingWaitStrategy();
            case "sleeping" -> new SleepingWaitStrategy();
            case "yielding" -> new YieldingWaitStrategy();
            case "busy-spin" -> new BusySpinWaitStrategy();
            default -> throw new IllegalArgumentException("must be one of " + NAMES + ", was \"" + name + "\"");
        };
    }
}
