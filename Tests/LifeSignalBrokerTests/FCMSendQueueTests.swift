import Foundation
@testable import LifeSignalBroker
import LifeSignalProtocol
import LifeSignalUV
import Logging
import Testing

/// The queue's task with a stub sender: enqueueing never waits, a retry holds no send slot, and
/// what it took is sent.
@Suite struct FCMSendQueueTests {
    private func push(_ notificationID: String, token: String = "t", type: NotificationType = .checkIn) -> PushMessage {
        let body: JSONValue = ["message": ["token": .string(token), "data": ["type": .string(type.rawValue)]]]
        return PushMessage(userID: "u_\(notificationID)", deviceID: "d", token: token, notificationID: notificationID,
                           body: body.serialized(), createdAt: 0)
    }

    /// Bounded, and generous: under the sanitizers this suite's tasks wait for the cooperative
    /// pool's threads, which the synchronous integration tests hold.
    private func waitUntil(_ condition: () -> Bool) async throws -> Bool {
        let deadline = ContinuousClock.now + .seconds(180)
        while !condition() && ContinuousClock.now < deadline { try await Task.sleep(for: .milliseconds(5)) }
        return condition()
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
        #expect(try await waitUntil { tries.withLock { $0.contains("n_busy") } })
        let others = (1...5).map { "n_\($0)" }
        for id in others { #expect(queue.enqueue(push(id))) }
        // The one slot is free while n_busy waits out its minute: the others go, in order. (A run
        // starved for longer than that minute sees n_busy tried again too.)
        #expect(try await waitUntil { tries.withLock { $0.filter { $0 != "n_busy" } } == others })
        #expect(tries.withLock { $0.first } == "n_busy")
        // Waiting, not lost: the backlog still holds it.
        #expect(try await waitUntil { metrics.gauge("lifesignal_push_backlog").last == 1 })
        await queue.close()
        #expect(!queue.enqueue(push("n_late")))
    }
}
