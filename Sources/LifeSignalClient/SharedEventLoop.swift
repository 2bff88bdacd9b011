import NIOCore
import NIOPosix

/// The one event loop thread every client of the process shares, started on first use: each
/// client actor runs on it (its executor) and so do its connection's channel handlers, so a read
/// enters the actor with `assumeIsolated`, without a hop.
///
/// A device needs one socket; a thread per client would cost more than all its traffic.
enum SharedEventLoop {
    private static let group = MultiThreadedEventLoopGroup(numberOfThreads: 1)

    static func get() -> any EventLoop { group.next() }
}

extension EventLoop {
    /// Monotonic milliseconds, for the client's deadlines and keepalives.
    var nowMs: UInt64 { NIODeadline.now().uptimeNanoseconds / 1_000_000 }
}
