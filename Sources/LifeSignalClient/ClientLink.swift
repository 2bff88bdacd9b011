import LifeSignalProtocol
import NIOCore

/// One connection of a client (TCP, or TLS over it) and its protocol session. Its channel runs on
/// the client's own loop, so `LinkHandler` forwards reads into the client actor with
/// `assumeIsolated`: no Task or thread hop per read.
///
/// Loop thread only. `@unchecked Sendable` so the actor may store it; every use is on the loop.
final class ClientLink: @unchecked Sendable {
    typealias Waiter = CheckedContinuation<JSONObject, any Error>

    let channel: any Channel
    /// Weak: a client dropped without `close()` must still deinit; its link then closes itself.
    weak var client: LifeSignalClient?
    var decoder: FrameDecoder
    var session = ConnectionSession<Waiter, DeviceState>()
    /// No `hello` on this connection (`register` and `signin` only).
    let isAnonymous: Bool
    var lastSentMs: UInt64
    var lastHeardMs: UInt64
    /// Closed by the client, which ends the link itself with its own reason: NIO reports the close
    /// at once, from inside `close()`, and that report must not end it a second time.
    private var isClosedHere = false

    init(channel: any Channel, client: LifeSignalClient, maxFrameBytes: Int, isAnonymous: Bool) {
        self.channel = channel
        self.client = client
        self.isAnonymous = isAnonymous
        decoder = FrameDecoder(maxFrameBytes: maxFrameBytes)
        lastSentMs = channel.eventLoop.nowMs
        lastHeardMs = lastSentMs
    }

    func send(_ bytes: [UInt8]) {
        channel.writeAndFlush(channel.allocator.buffer(bytes: bytes), promise: nil)
        lastSentMs = channel.eventLoop.nowMs
    }

    func close() {
        isClosedHere = true
        channel.close(promise: nil)
    }

    func didRead(_ bytes: UnsafeRawBufferPointer) {
        lastHeardMs = channel.eventLoop.nowMs
        guard let client else { return close() }
        // Same thread, used only during this call: the region checker cannot see that.
        nonisolated(unsafe) let bytes = bytes
        client.assumeIsolated { $0.linkDidRead(self, bytes) }
    }

    func didClose(error: (any Error)?) {
        guard !isClosedHere else { return }
        client?.assumeIsolated { $0.linkDidClose(self, error: error) }
    }
}

/// The last handler of a link's pipeline: bytes in, the end of the connection (with the error that
/// ended it, a TLS one say) out.
final class LinkHandler: ChannelInboundHandler, @unchecked Sendable {
    typealias InboundIn = ByteBuffer

    /// Set once the connect succeeded, before anything can be read.
    var link: ClientLink?
    private var error: (any Error)?

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        let buffer = unwrapInboundIn(data)
        buffer.withUnsafeReadableBytes { link?.didRead($0) }
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        if self.error == nil { self.error = error }
        context.close(promise: nil)
    }

    func channelInactive(context: ChannelHandlerContext) {
        link?.didClose(error: error)
        link = nil
    }
}
