import Dispatch
import Logging
import Synchronization

/// Hands committed pushes to the gateway on a serial queue of its own, so that a slow or
/// failing gateway never holds up the loop. The backlog is bounded: past it, batches are
/// left to the store, where they are already durable.
package final class PushOutbox: Sendable {
    package static let maxPendingBatches = 10_000

    private let gateway: any PushGateway
    private let logger: Logger
    private let queue = DispatchQueue(label: "lifesignal.push")
    private let pendingBatches = Atomic<Int>(0)
    /// Set while batches are being dropped, so that a stalled gateway logs once, not per batch.
    private let dropping = Atomic<Bool>(false)

    package init(gateway: any PushGateway, logger: Logger) {
        self.gateway = gateway
        self.logger = logger
    }

    /// The gateway's way back to the broker (tokens it found dead), given when the broker starts.
    package func start(feedback: PushFeedback) { gateway.start(feedback: feedback) }

    /// Lets the gateway finish: called once the broker has stopped routing.
    package func shutdown() async { await gateway.shutdown() }

    /// Called on the loop after a commit; returns at once.
    package func deliver(_ messages: [PushMessage]) {
        guard !messages.isEmpty else { return }
        guard pendingBatches.add(1, ordering: .relaxed).newValue <= Self.maxPendingBatches else {
            pendingBatches.subtract(1, ordering: .relaxed)
            if !dropping.exchange(true, ordering: .relaxed) {
                logger.warning("push gateway is behind; new pushes stay in the store only",
                               metadata: ["lifesignal.pending": .stringConvertible(Self.maxPendingBatches)])
            }
            return
        }
        dropping.store(false, ordering: .relaxed)
        queue.async { [self] in
            defer { pendingBatches.subtract(1, ordering: .relaxed) }
            do {
                try gateway.deliver(messages)
            } catch {
                logger.warning("push gateway failed", metadata: [
                    "lifesignal.pushes": .stringConvertible(messages.count), "lifesignal.error": "\(error)",
                ])
            }
        }
    }
}
