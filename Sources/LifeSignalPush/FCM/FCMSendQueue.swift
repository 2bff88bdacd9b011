import LifeSignalUV
import Logging

/// Runs a `FairPushQueue`: one task hands due messages to at most `maxConcurrentSends` sends at
/// once (one HTTP/2 connection carries them) and wakes when a message arrives, a send ends or a
/// backoff runs out. Enqueueing never blocks the caller (the broker's push queue). What the queue
/// does not take stays in the store's `pushes` table, counted and logged once per run of drops.
package final class FCMSendQueue: Sendable {
    package typealias Send = @Sendable (PushMessage) async -> FCMTryResult
    package typealias Report = @Sendable (PushMessage, FCMTryResult, FairPushQueue.Decision, _ attempts: Int) -> Void

    private let state: Locked<FairPushQueue>
    private let wake: AsyncStream<Void>.Continuation
    private let dispatcher: Task<Void, Never>
    private let metrics: PushMetrics
    private let logger: Logger
    private let start = ContinuousClock.now
    /// Set while pushes are being dropped, so that a flood logs once, not per message.
    private let dropping = Locked(false)

    package init(limits: FairPushQueue.Limits = .init(), metrics: PushMetrics, logger: Logger, send: @escaping Send,
         report: @escaping Report) {
        let state = Locked(FairPushQueue(limits: limits))
        let (wakeups, wake) = AsyncStream.makeStream(of: Void.self, bufferingPolicy: .bufferingNewest(1))
        self.state = state
        self.wake = wake
        self.metrics = metrics
        self.logger = logger
        let start = start
        let now: @Sendable () -> Duration = { start.duration(to: .now) }
        dispatcher = Task {
            await withDiscardingTaskGroup { group in
                var timer: (due: Duration, task: Task<Void, Never>)?
                for await _ in wakeups {
                    while let ticket = state.withLock({ $0.next(now: now()) }) {
                        group.addTask {
                            let result = await send(ticket.message)
                            let (decision, backlog) = state.withLock { queue in
                                (queue.finish(ticket, result, now: now(), jitter: .random(in: 0..<1)), queue.backlog)
                            }
                            report(ticket.message, result, decision, ticket.attempt)
                            metrics.backlog.record(backlog)
                            wake.yield()
                        }
                    }
                    // Sleep until the earliest backoff ends, unless a timer for it is already set.
                    let due = state.withLock { $0.nextDue(after: now()) }
                    if let current = timer, current.due != due || current.due <= now() {
                        current.task.cancel()
                        timer = nil
                    }
                    if timer == nil, let due {
                        timer = (due, Task {
                            try? await Task.sleep(until: start + due, clock: .continuous)
                            wake.yield()
                        })
                    }
                }
                timer?.task.cancel()
                group.cancelAll()
            }
        }
    }

    /// Returns at once, whether the message was taken (or merged into one waiting); never blocks.
    @discardableResult
    package func enqueue(_ message: PushMessage) -> Bool {
        let traits = PushTraits(message)
        let (admission, backlog) = state.withLock { queue in
            (queue.enqueue(message, traits: traits, now: start.duration(to: .now)), queue.backlog)
        }
        metrics.backlog.record(backlog)
        switch admission {
        case .queued:
            noteRoom()
        case .queuedDroppingAnother:
            noteDrop()
        case .coalesced:
            metrics.count(.coalesced)
        case .throttled:
            metrics.count(.throttled)
        case .dropped:
            noteDrop()
            return false
        case .closed:
            return false
        }
        wake.yield()
        return true
    }

    /// Stops taking messages and ends the sends in flight (their messages stay in the store).
    package func close() async {
        state.withLock { $0.close() }
        wake.finish()
        await dispatcher.value
    }

    private func noteDrop() {
        metrics.count(.dropped)
        if !dropping.withLock({ flag in defer { flag = true }; return flag }) {
            let limits = state.withLock { $0.limits }
            logger.warning("FCM queue is full; the oldest waiting push of the busiest recipient stays in the store only", metadata: [
                "lifesignal.fcm.capacity": .stringConvertible(limits.capacity), "lifesignal.fcm.per_recipient": .stringConvertible(limits.perRecipient),
            ])
        }
    }

    private func noteRoom() {
        if dropping.withLock({ flag in defer { flag = false }; return flag }) {
            logger.notice("FCM queue has room again")
        }
    }
}
