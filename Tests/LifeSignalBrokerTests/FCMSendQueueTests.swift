import Foundation
@testable import LifeSignalBroker
import LifeSignalUV
import Logging
import Testing

/// The FCM backlog: bounded, never blocking the caller, and everything it took is sent.
@Suite struct FCMSendQueueTests {
    private func push(_ notificationID: String) -> PushMessage {
        PushMessage(userID: "u_a", deviceID: "d", token: "t", notificationID: notificationID, body: [], createdAt: 0)
    }

    @Test func pastItsCapacityMessagesAreDroppedAndTheRestAreSent() async throws {
        let released = Locked(false)
        let sent = Locked<[String]>([])
        let metrics = RecordingMetrics()
        let queue = FCMSendQueue(capacity: 2, maxConcurrentSends: 1, metrics: PushMetrics(factory: metrics),
                                 logger: Logger(label: "test") { _ in SwiftLogNoOpLogHandler() }) { message in
            // The first send stalls, as a slow FCM would, until the test lets it go.
            while !released.withLock({ $0 }) { try? await Task.sleep(for: .milliseconds(5)) }
            sent.withLock { $0.append(message.notificationID) }
        }
        // Enqueueing never waits for a send: the first one is stalled until after these return.
        let taken = (1...10).filter { queue.enqueue(push("n_\($0)")) }.map { "n_\($0)" }
        // Two wait in the buffer; the drain may already hold one being sent and one waiting for a slot.
        #expect((2...4).contains(taken.count))
        #expect(taken == (1...taken.count).map { "n_\($0)" })

        released.withLock { $0 = true }
        // Bounded, and generous: under the sanitizers this suite's tasks wait for the cooperative
        // pool's threads, which the synchronous integration tests hold.
        let deadline = ContinuousClock.now + .seconds(180)
        // Until every send has finished, its backlog count included.
        while metrics.gauge("lifesignal_push_backlog").last != 0 && ContinuousClock.now < deadline {
            try await Task.sleep(for: .milliseconds(5))
        }
        #expect(sent.withLock { $0 } == taken)
        // Measured: what was dropped is counted, and the backlog went up to what was taken and back to 0.
        #expect(metrics.counter("lifesignal_pushes_total{result=dropped}") == Int64(10 - taken.count))
        let backlog = metrics.gauge("lifesignal_push_backlog")
        #expect(backlog.max() == Double(taken.count))
        #expect(backlog.last == 0)
        // Room again: the next is taken.
        #expect(queue.enqueue(push("n_11")))
        await queue.close()
        #expect(!queue.enqueue(push("n_12")))
    }
}
