import NIOCore

/// How a client reaches its broker: SwiftNIO's sockets with TLS from NIOSSL (Linux,
/// `ClientTransport+Sockets`), or on Apple's platforms Network.framework through
/// NIOTransportServices, with the system's TLS (`ClientTransport+Network`): it follows the
/// device's network path (Wi-Fi to cellular, a VPN) as an app is expected to. Either way a
/// connection's channel runs on the one event loop every client of the process shares.
enum SharedEventLoop {
    static func get() -> any EventLoop { ClientTransport.group.next() }
}

extension EventLoop {
    /// Monotonic milliseconds, for the client's deadlines and keepalives.
    var nowMs: UInt64 { NIODeadline.now().uptimeNanoseconds / 1_000_000 }
}
