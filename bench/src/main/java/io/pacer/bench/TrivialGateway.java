package io.pacer.bench;

import io.netty.bootstrap.ServerBootstrap;
import io.netty.buffer.ByteBuf;
import io.netty.channel.Channel;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.ChannelOption;
import io.netty.channel.MultiThreadIoEventLoopGroup;
import io.netty.handler.codec.ByteToMessageDecoder;
import io.pacer.wire.netty.FrameReader;
import io.pacer.wire.netty.Transport;
import io.pacer.wire.FrameEncoder;
import io.pacer.wire.FrameListener;
import io.pacer.wire.ErrorCode;
import io.pacer.wire.Reason;
import org.agrona.concurrent.UnsafeBuffer;

import java.util.List;

/**
 * The ceiling: a server that frames and answers every bid request with BID on the I/O thread
 * that read it, deciding nothing, with the pacer's own decoder and encoder. What the load
 * generator gets from it on this machine is the most any pacer could get.
 * Run: {@code java -cp bench/target/benchmarks.jar io.pacer.bench.TrivialGateway PORT [IO_THREADS]}.
 */
public final class TrivialGateway
{
    private TrivialGateway()
    {
    }

    public static void main(final String[] args) throws Exception
    {
        final int port = args.length > 0 ? Integer.parseInt(args[0]) : 9410;
        final int ioThreads = args.length > 1 ? Integer.parseInt(args[1]) : 1;
        final MultiThreadIoEventLoopGroup group = Transport.group(ioThreads, "trivial-io");
        final Channel server = new ServerBootstrap()
            .group(group)
            .channel(Transport.serverChannel())
            .childOption(ChannelOption.TCP_NODELAY, true)
            .childHandler(new ChannelInitializer<>()
            {
                @Override
                protected void initChannel(final Channel ch)
                {
                    ch.pipeline().addLast(new Answerer());
                }
            })
            .bind("127.0.0.1", port).sync().channel();
        System.out.println("trivial gateway ready on 127.0.0.1:" + port);
        server.closeFuture().sync();
    }

    /** Answers BID to every bid request; ignores notices. */
    static final class Answerer extends ByteToMessageDecoder implements FrameListener
    {
        private final FrameReader reader = new FrameReader(4096);
        private final FrameEncoder encoder = new FrameEncoder();
        private final UnsafeBuffer scratch = new UnsafeBuffer(new byte[FrameEncoder.BID_RESPONSE_LENGTH]);
        private ByteBuf out;
        private ChannelHandlerContext ctx;

        @Override
        protected void decode(final ChannelHandlerContext ctx, final ByteBuf in, final List<Object> unused)
        {
            this.ctx = ctx;
            reader.read(in, this);
        }

        @Override
        public void channelReadComplete(final ChannelHandlerContext ctx) throws Exception
        {
            if (out != null)
            {
                ctx.writeAndFlush(out, ctx.voidPromise());
                out = null;
            }
            super.channelReadComplete(ctx);
        }

        @Override
        public void onBidRequest(final long requestId, final long campaignId, final long bidCpmMicros)
        {
            if (out == null)
            {
                out = ctx.alloc().directBuffer(4096);
            }
            encoder.bidResponse(scratch, 0, requestId, Reason.NONE);
            out.writeBytes(scratch.byteArray(), 0, FrameEncoder.BID_RESPONSE_LENGTH);
        }

        @Override
        public void onWinNotice(final long requestId, final long campaignId, final long priceCpmMicros)
        {
        }

        @Override
        public void onLossNotice(final long requestId, final long campaignId)
        {
        }

        @Override
        public void onInvalidFrame(final ErrorCode code, final long requestId, final int templateId)
        {
            ctx.close();
        }
    }
}
