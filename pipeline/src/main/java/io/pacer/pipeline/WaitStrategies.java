package io.pacer.pipeline;

import com.lmax.disruptor.BlockingWaitStrategy;
import com.lmax.disruptor.BusySpinWaitStrategy;
import com.lmax.disruptor.PhasedBackoffWaitStrategy;
import com.lmax.disruptor.SleepingWaitStrategy;
import com.lmax.disruptor.WaitStrategy;
import com.lmax.disruptor.YieldingWaitStrategy;

import java.util.List;
import java.util.Locale;
import java.util.concurrent.TimeUnit;

/**
 * The wait strategies {@code pacer.pipeline.wait-strategy} may name.
 * <ul>
 *   <li>{@code phased} (default): spin 20 us, yield up to 200 us, then block until signalled
 *       (producers signal only when a handler really sleeps). Near-spinning latency under load,
 *       almost no CPU while idle: right for a shared 2-core host.</li>
 *   <li>{@code blocking}: handlers sleep on a condition at once; the least CPU while idle, but
 *       every hand-off under load pays a wake-up.</li>
 *   <li>{@code sleeping}: spin, then yield, then park briefly; producers never signal.</li>
 *   <li>{@code yielding}: spin then yield; low latency, one busy core per handler.</li>
 *   <li>{@code busy-spin}: lowest latency; only with a spare physical core per handler.</li>
 * </ul>
 */
public final class WaitStrategies
{
    /** Accepted names. */
    public static final List<String> NAMES = List.of("phased", "blocking", "sleeping", "yielding", "busy-spin");

    private WaitStrategies()
    {
    }

    /** @throws IllegalArgumentException naming the accepted values */
    public static WaitStrategy fromName(final String name)
    {
        return switch (name.toLowerCase(Locale.ROOT))
        {
            case "phased" -> PhasedBackoffWaitStrategy.withLiteLock(20, 200, TimeUnit.MICROSECONDS);
            case "blocking" -> new BlockingWaitStrategy();
            case "sleeping" -> new SleepingWaitStrategy();
            case "yielding" -> new YieldingWaitStrategy();
            case "busy-spin" -> new BusySpinWaitStrategy();
            default -> throw new IllegalArgumentException("must be one of " + NAMES + ", was \"" + name + "\"");
        };
    }
}
