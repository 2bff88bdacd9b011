import NIOCore

/// A one-shot timer on the client's loop; starting it again replaces what was scheduled.
/// Loop thread only.
final class LoopTimer {
    private let loop: any EventLoop
    private var scheduled: Scheduled<Void>?

    init(loop: any EventLoop) {
        self.loop = loop
    }

    func start(afterMs delay: UInt64, _ body: @escaping @Sendable () -> Void) {
        scheduled?.cancel()
        scheduled = loop.scheduleTask(in: .milliseconds(Int64(clamping: delay))) { body() }
    }

    func stop() {
        scheduled?.cancel()
        scheduled = nil
    }
}

/// A client's loop timers. Loop thread only; `@unchecked Sendable` so the client's deinit can
/// hand them to the loop thread to be stopped there.
final class ClientTimers: @unchecked Sendable {
    let keepalive: LoopTimer
    let reconnect: LoopTimer
    let answer: LoopTimer
    let stateCache: LoopTimer
    /// How long the credentials provider has to give a token for an attempt.
    let credentials: LoopTimer
    /// The answer timer will fire: at or before the deadline of the oldest request in flight.
    var answerTimerIsArmed = false

    init(loop: any EventLoop) {
        keepalive = LoopTimer(loop: loop)
        reconnect = LoopTimer(loop: loop)
        answer = LoopTimer(loop: loop)
        stateCache = LoopTimer(loop: loop)
        credentials = LoopTimer(loop: loop)
    }

    func stopKeepalive() { keepalive.stop() }
    func stopReconnect() { reconnect.stop() }
    func stopStateCache() { stateCache.stop() }

    func closeAll() {
        keepalive.stop()
        reconnect.stop()
        answer.stop()
        stateCache.stop()
        credentials.stop()
        answerTimerIsArmed = false
    }
}
