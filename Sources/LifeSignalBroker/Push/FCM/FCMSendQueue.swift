import Logging
import LifeSignalUV

/// The messages waiting for FCM, bounded: past `capacity` waiting (besides the few being sent)
/// a message is dropped (it stays in the store's `pushes` table), counted, and logged once per
/// run of drops. A single task drains it, sending at most `maxConcurrentSends` messages at once
/// (one HTTP/2 connection carries them).
final class FCMSendQueue: Sendable {
    static let defaultMaxConcurrentSends = 8

    private let continuation: AsyncStream<PushMessage>.Continuation
    private let drain: Task<Void, Never>
    private let metrics: PushMetrics
    private let logger: Logger
    /// Accepted and not yet finished, for `lifesignal_push_backlog`.
    private let backlog = Locked(0)
    /// Set while messages are being dropped, so that a stalled FCM logs once, not per message.
    private let dropping = Locked(false)
    let capacity: Int

    init(capacity: Int, maxConcurrentSends: Int = defaultMaxConcurrentSends, metrics: PushMetrics,
         logger: Logger, send: @escaping @Sendable (PushMessage) async -> Void) {
        let (stream, continuation) = AsyncStream.makeStream(of: PushMessage.self,
                                                            bufferingPolicy: .bufferingOldest(capacity))
        self.continuation = continuation
        self.capacity = capacity
        self.metrics = metrics
        self.logger = logger
        let backlog = self.backlog
        drain = Task {
            await withTaskGroup(of: Void.self) { group in
                var sending = 0
                for await message in stream {
                    if sending >= maxConcurrentSends {
                        await group.next()
                        sending -= 1
                    }
                    group.addTask {
                        await send(message)
                        let waiting = backlog.withLock { count in
                            count -= 1
                            return count
                        }
                        metrics.backlog.record(waiting)
                    }
                    sending += 1
                }
            }
        }
    }

    /// Returns at once, whether the message was taken; never blocks the caller (the broker's push queue).
    @discardableResult
    func enqueue(_ message: PushMessage) -> Bool {
        let waiting = backlog.withLock { count in
            count += 1
            return count
        }
        switch continuation.yield(message) {
        case .enqueued:
            metrics.backlog.record(waiting)
            if dropping.withLock({ flag in defer { flag = false }; return flag }) {
                logger.notice("FCM backlog has room again")
            }
            return true
        case .terminated:
            backlog.withLock { $0 -= 1 }  // the broker is stopping; the store keeps the message
            return false
        case .dropped:
            backlog.withLock { $0 -= 1 }
            metrics.count(.dropped)
            if !dropping.withLock({ flag in defer { flag = true }; return flag }) {
                logger.warning("FCM backlog is full; new pushes stay in the store only",
                               metadata: ["lifesignal.fcm.backlog": "\(capacity)"])
            }
            return false
        @unknown default:
            backlog.withLock { $0 -= 1 }
            return false
        }
    }

    /// Stops taking messages and ends the sends in flight (their messages stay in the store).
    func close() async {
        continuation.finish()
        drain.cancel()
        await drain.value
    }
}
