package io.pacer.loadtest;

import io.netty.bootstrap.Bootstrap;
import io.pacer.wire.netty.Transport;
import io.netty.channel.Channel;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.ChannelOption;
import io.netty.channel.MultiThreadIoEventLoopGroup;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * Runs one bounded load run: connects, sends for warm-up plus duration (or until
 * {@code maxRequests}), waits for the outstanding answers, and reports.
 */
public final class LoadGenerator
{
    private final LoadOptions options;

    public LoadGenerator(final LoadOptions options)
    {
        this.options = options;
    }

    public LoadReport run() throws Exception
    {
        if (options.viaClient())
        {
            return new ClientLoad(options).run();
        }
        final MultiThreadIoEventLoopGroup group = Transport.group(options.threads(), "pacer-load");
        final List<LoadConnection> connections = new ArrayList<>();
        final List<Channel> channels = new ArrayList<>();
        try
        {
            final long start = System.nanoTime();
            final LoadClock clock = new LoadClock(start, options.warmup().toNanos(), options.duration().toNanos(),
                Math.max(1, options.maxRequests() / options.connections()));
            for (int i = 0; i < options.connections(); i++)
            {
                final LoadConnection connection = new LoadConnection(options, clock, i);
                connections.add(connection);
                final Bootstrap bootstrap = new Bootstrap()
                    .group(group)
                    .channel(Transport.socketChannel())
                    .option(ChannelOption.TCP_NODELAY, true)
                    .option(ChannelOption.CONNECT_TIMEOUT_MILLIS, 5_000)
                    .handler(new ChannelInitializer<>()
                    {
                        @Override
                        protected void initChannel(final Channel ch)
                        {
                            if (options.tls() != null)
                            {
                                ch.pipeline().addLast(options.tls().newHandler(ch.alloc(), options.host(), options.port()));
                            }
                            ch.pipeline().addLast(connection);
                        }
                    });
                channels.add(bootstrap.connect(options.host(), options.port()).sync().channel());
            }
            final long sendUntil = clock.sendUntilNanos();
            while (System.nanoTime() < sendUntil && anyActive(channels))
            {
                TimeUnit.MILLISECONDS.sleep(Math.max(1, Math.min(50, (sendUntil - System.nanoTime()) / 1_000_000)));
            }
            for (int i = 0; i < channels.size(); i++)
            {
                final LoadConnection connection = connections.get(i);
                channels.get(i).eventLoop().submit(connection::stop).sync();
            }
            final long drainUntil = System.nanoTime() + options.drainTimeout().toNanos();
            while (System.nanoTime() < drainUntil && outstanding(channels, connections) > 0)
            {
                TimeUnit.MILLISECONDS.sleep(5);
            }
            final double measuredSeconds = Math.max(1e-9,
                (Math.min(System.nanoTime(), sendUntil) - clock.measureFromNanos()) / 1e9);
            return report(channels, connections, measuredSeconds);
        }
        finally
        {
            channels.forEach(Channel::close);
            group.shutdownGracefully(0, 1, TimeUnit.SECONDS).syncUninterruptibly();
        }
    }

    private static boolean anyActive(final List<Channel> channels)
    {
        for (final Channel channel : channels)
        {
            if (channel.isActive())
            {
                return true;
            }
        }
        return false;
    }

    private static long outstanding(final List<Channel> channels, final List<LoadConnection> connections) throws Exception
    {
        long total = 0;
        for (int i = 0; i < channels.size(); i++)
        {
            final LoadConnection connection = connections.get(i);
            if (channels.get(i).isActive())
            {
                total += channels.get(i).eventLoop().submit(() -> connection.outstanding).get();
            }
        }
        return total;
    }

    private LoadReport report(
        final List<Channel> channels, final List<LoadConnection> connections, final double seconds) throws Exception
    {
        final AnswerTally total = new AnswerTally();
        final long[] sent = new long[1];
        final Map<String, Long> errors = new LinkedHashMap<>();
        for (int i = 0; i < connections.size(); i++)
        {
            final LoadConnection c = connections.get(i);
            // read each connection's fields on its own event loop
            channels.get(i).eventLoop().submit(() ->
            {
                c.tally.addTo(total);
                sent[0] += c.sent;
                add(errors, "missingAnswers", c.outstanding);
                add(errors, "unknownRequestIds", c.unknownAnswers);
                add(errors, "errorFramesReceived", c.errorFrames);
                add(errors, "invalidFrames", c.invalidFrames);
                add(errors, "windowFull", c.windowFull);
                add(errors, "disconnected", c.disconnected ? 1 : 0);
            }).sync();
        }
        final String mode = options.openLoop() ?
            String.format("open loop, %,d req/s target, %d connections", options.ratePerSecond(), options.connections()) :
            String.format("closed loop (raw connections), %d connections x %d in flight", options.connections(), options.inFlight());
        return new LoadReport(mode, seconds, sent[0], total.answers, total.measuredAnswers, total.wins, total.losses,
            total.latencyNanos, total.decisionsByReason, errors);
    }

    private static void add(final Map<String, Long> errors, final String key, final long value)
    {
        errors.merge(key, value, Long::sum);
    }
}
