import Foundation
@testable import LifeSignalBroker
@testable import LifeSignalPush
import LifeSignalUV
import Logging
import Testing

/// A slow or failing gateway must never hold up the caller, which is the broker's loop (§7).
@Suite struct PushOutboxTests {
    /// Blocks in `deliver` until released; fails the batches it is told to.
    final class StubGateway: PushGateway {
        let delivered = Locked<[[String]]>([])
        let release = DispatchSemaphore(value: 0)
        let failing: Set<String>

        init(failing: Set<String> = []) { self.failing = failing }

        struct Failed: Error {}

        func deliver(_ messages: [PushMessage]) throws {
            release.wait()
            let ids = messages.map(\.notificationID)
            delivered.withLock { $0.append(ids) }
            if ids.contains(where: failing.contains) { throw Failed() }
        }
    }

    private func push(_ notificationID: String) -> PushMessage {
        PushMessage(userID: "u_a", deviceID: "d", token: "t", notificationID: notificationID, body: [], createdAt: 0)
    }

    private func waitForBatches(_ gateway: StubGateway, _ count: Int) -> [[String]] {
        let deadline = ContinuousClock.now + .seconds(5)
        while ContinuousClock.now < deadline {
            let batches = gateway.delivered.withLock { $0 }
            if batches.count >= count { return batches }
            Thread.sleep(forTimeInterval: 0.005)
        }
        return gateway.delivered.withLock { $0 }
    }

    @Test func deliverReturnsAtOnceAndBatchesArriveInOrderEvenAfterAFailure() {
        let gateway = StubGateway(failing: ["n_1"])
        let outbox = PushOutbox(gateway: gateway, logger: Logger(label: "test") { _ in SwiftLogNoOpLogHandler() })
        let started = ContinuousClock.now
        outbox.deliver([push("n_1")])
        outbox.deliver([push("n_2"), push("n_3")])
        outbox.deliver([])  // nothing to hand over
        #expect(ContinuousClock.now - started < .milliseconds(500))
        #expect(gateway.delivered.withLock { $0.isEmpty })

        gateway.release.signal()
        gateway.release.signal()
        #expect(waitForBatches(gateway, 2) == [["n_1"], ["n_2", "n_3"]])
    }
}
