import LifeSignalUV

/// The one loop thread every client of the process shares, started on first use.
///
/// A device needs one socket; a thread per client would cost more than all its traffic.
enum SharedEventLoop {
    private static let loop: Result<EventLoop, any Error> = Result {
        try EventLoop.startOnNewThread(name: "lifesignal-client")
    }

    static func get() throws -> EventLoop {
        try loop.get()
    }
}
