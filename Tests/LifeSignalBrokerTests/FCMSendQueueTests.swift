import Foundation
@testable import LifeSignalBroker
import LifeSignalProtocol
@testable import LifeSignalPush
import LifeSignalUV
import Logging
import Testing

/// The queue's task with a stub sender: enqueueing never waits, a retry holds no send slot, and
/// what it took is sent.
@Suite(.timeLimit(.minutes(20))) struct FCMSendQueueTests {
    private func push(_ notificationID: String, token: String = "t", type: NotificationType = .checkIn) -> PushMessage {
        let body: JSONValue = ["message": ["token": .string(token), "data": ["type": .string(type.rawValue)]]]
        return PushMessage(userID: "u_\(notificationID)", deviceID: "d", token: token, notificationID: notificationID,
                           body: body.serialized(), createdAt: 0)
    }

    /// Waits for the event itself, with no clock of its own: this suite's tasks share the cooperative
    /// pool with synchronous integration tests that can hold every thread of it for minutes under the
    /// sanitizers, so a deadline here would expire while the queue's task had not yet been given a
    /// thread. The suite's time limit ends a run that never sees the event.
    private func waitFor(_ condition: () -> Bool) async throws {
        while !condition() { try await Task.sleep(for: .milliseconds(5)) }
    }

    @Test func aRetryWaitsOutsideTheOneSendSlotAndEverythingTakenIsSent() async throws {
        let tries = Locked<[String]>([])
        let metrics = RecordingMetrics()
        var limits = FairPushQueue.Limits()
        limits.maxConcurrentSends = 1
        let queue = FCMSendQueue(limits: limits, metrics: PushMetrics(factory: metrics),
                                 logger: Logger(label: "test") { _ in SwiftLogNoOpLogHandler() },
                                 send: { message in
                                     tries.withLock { $0.append(message.notificationID) }
                                     // FCM's quota is spent for this token: its next try is a minute away.
                                     return message.token == "busy" ? .answered(.rateLimited(retryAfter: nil)) : .answered(.sent)
                                 },
                                 report: { _, _, _, _ in })
        #expect(queue.enqueue(push("n_busy", token: "busy")))
        try await waitFor { tries.withLock { $0.contains("n_busy") } }
        let others = (1...5).map { "n_\($0)" }
        for id in others { #expect(queue.enqueue(push(id))) }
        // The one slot is free while n_busy waits out its minute: the others go, in order. (A run
        // starved for longer than that minute sees n_busy tried again too.)
        try await waitFor { tries.withLock { $0.filter { $0 != "n_busy" }.count } >= others.count }
        #expect(tries.withLock { $0.filter { $0 != "n_busy" } } == others)
        #expect(tries.withLock { $0.first } == "n_busy")
        // Waiting, not lost: the backlog still holds it.
        try await waitFor { metrics.gauge("lifesignal_push_backlog").last == 1 }
        await queue.close()
        #expect(!queue.enqueue(push("n_late")))
    }
}
