package io.pacer.wire.netty;

import io.netty.channel.IoHandlerFactory;
import io.netty.channel.MultiThreadIoEventLoopGroup;
import io.netty.channel.ServerChannel;
import io.netty.channel.epoll.Epoll;
import io.netty.channel.epoll.EpollIoHandler;
import io.netty.channel.epoll.EpollServerSocketChannel;
import io.netty.channel.epoll.EpollSocketChannel;
import io.netty.channel.socket.SocketChannel;
import io.netty.channel.nio.NioIoHandler;
import io.netty.channel.socket.nio.NioServerSocketChannel;
import io.netty.channel.socket.nio.NioSocketChannel;
import io.netty.util.concurrent.FastThreadLocalThread;

import java.util.concurrent.ThreadFactory;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Netty 4.2 transport choice, shared by the server and the load generator: native epoll when the
 * platform has it, NIO otherwise.
 */
public final class Transport
{
    private Transport()
    {
    }

    public static boolean nativeEpoll()
    {
        return Epoll.isAvailable();
    }

    public static String name()
    {
        return nativeEpoll() ? "epoll" : "nio";
    }

    public static MultiThreadIoEventLoopGroup group(final int threads, final String name)
    {
        final IoHandlerFactory factory = nativeEpoll() ? EpollIoHandler.newFactory() : NioIoHandler.newFactory();
        return new MultiThreadIoEventLoopGroup(threads, new Named(name), factory);
    }

    public static Class<? extends ServerChannel> serverChannel()
    {
        return nativeEpoll() ? EpollServerSocketChannel.class : NioServerSocketChannel.class;
    }

    public static Class<? extends SocketChannel> socketChannel()
    {
        return nativeEpoll() ? EpollSocketChannel.class : NioSocketChannel.class;
    }

    private static final class Named implements ThreadFactory
    {
        private final String prefix;
        private final AtomicInteger count = new AtomicInteger();

        Named(final String prefix)
        {
            this.prefix = prefix;
        }

        @Override
        public Thread newThread(final Runnable r)
        {
            final Thread thread = new FastThreadLocalThread(r, prefix + "-" + count.getAndIncrement());
            thread.setDaemon(true);
            return thread;
        }
    }
}
