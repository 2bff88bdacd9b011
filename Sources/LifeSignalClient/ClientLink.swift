import LifeSignalProtocol
import LifeSignalUV

/// One TCP connection of a client and its protocol session. It forwards socket callbacks into the
/// client actor with `assumeIsolated`: the actor runs on this same loop, so there is no Task or
/// thread hop per read.
///
/// Loop thread only. `@unchecked Sendable` so the actor may store it; every use is on the loop.
final class ClientLink: TCPConnectionDelegate, @unchecked Sendable {
    typealias Waiter = CheckedContinuation<JSONObject, any Error>

    let tcp: TCPConnection
    /// Weak: a client dropped without `close()` must still deinit; its link then closes itself.
    weak var client: LifeSignalClient?
    var decoder: FrameDecoder
    var session = ConnectionSession<Waiter, DeviceState>()
    /// No `hello` on this connection (`register` only).
    let isAnonymous: Bool
    var lastSentMs: UInt64
    var lastHeardMs: UInt64

    init(tcp: TCPConnection, client: LifeSignalClient, maxFrameBytes: Int, isAnonymous: Bool) {
        self.tcp = tcp
        self.client = client
        self.isAnonymous = isAnonymous
        decoder = FrameDecoder(maxFrameBytes: maxFrameBytes)
        lastSentMs = tcp.loop.cachedNowMs
        lastHeardMs = lastSentMs
    }

    func send(_ bytes: [UInt8]) {
        tcp.write(bytes)
        lastSentMs = tcp.loop.cachedNowMs
    }

    func connection(_ connection: TCPConnection, didRead bytes: UnsafeRawBufferPointer) {
        lastHeardMs = tcp.loop.cachedNowMs
        guard let client else {
            connection.close()
            return
        }
        // Same thread, used only during this call: the region checker cannot see that.
        nonisolated(unsafe) let bytes = bytes
        client.assumeIsolated { $0.linkDidRead(self, bytes) }
    }

    func connectionDidClose(_ connection: TCPConnection, error: UVError?) {
        client?.assumeIsolated { $0.linkDidClose(self, error: error) }
    }
}
