@testable import LifeSignalBroker
import LifeSignalEngine
import LifeSignalPostgres
import LifeSignalProtocol
import LifeSignalRules
import PostgresNIO
import Testing

/// `reconcilePresence` (issue 24): a presence row its broker no longer backs is removed, and the
/// device is pushed, once, what was skipped because of it.
@Suite struct ClusterPresenceRepairTests {
    let cluster = ClusterExecutorTests()

    @Test func aStaleRowIsRemovedAndWhatItCostIsPushedOnce() async throws {
        try await cluster.withCluster(brokers: 1) { brokers in
            let executor = brokers[0]
            try await cluster.register(["Alice", "Bob"], on: executor)
            _ = try await executor.perform(as: "u_Alice", involving: .named(["u_Bob"]), now: 1_000) {
                step throws(ProtocolError) in
                try ContactRules.add("u_Bob", by: "u_Alice", qrCode: "qr_Bob", isResponder: true, isDependent: false,
                                     maxContacts: 0, in: &step)
            }
            // Alice's phone is online on broker "here" (its row), with a push token.
            _ = try await executor.attach(userID: "u_Alice", deviceID: "phone", platform: "ios", brokerID: "here",
                                          now: 2_000)
            try await executor.commit([.movePushToken(token: "fcm-alice", to: DeviceKey(userID: "u_Alice", deviceID: "phone"),
                                                      platform: "ios")])
            let wentAway = WallClock.nowMs()
            // "here" is live while its heartbeat is younger than 15 s, however slow the test runs.
            try await executor.heartbeat(brokerID: "here")
            // The phone went away, but "here" could not say so: Bob's ping skips it.
            let ping = try await executor.perform(as: "u_Bob", involving: .named(["u_Alice"]), now: wentAway + 10) {
                step throws(ProtocolError) in try PingRules.send(to: "u_Alice", by: "u_Bob", in: &step)
            }
            #expect(ping.pushes.isEmpty)

            let key = DeviceKey(userID: "u_Alice", deviceID: "phone")
            let repair = try await executor.reconcilePresence(brokerID: "here", held: [], offlineSince: [key: wentAway],
                                                              now: wentAway + 20)
            #expect(repair.removed == [key])
            #expect(repair.pushes.map(\.token) == ["fcm-alice"])
            #expect(repair.pushes.first?.notificationID != nil)
            // Nothing is made up twice.
            let again = try await executor.reconcilePresence(brokerID: "here", held: [], offlineSince: [:],
                                                             now: wentAway + 30)
            #expect(again.removed.isEmpty && again.pushes.isEmpty)
        }
    }

    @Test func aHeldDeviceKeepsItsRowAndOneWithoutARowGetsItBack() async throws {
        try await cluster.withCluster(brokers: 1) { brokers in
            let executor = brokers[0]
            try await cluster.register(["Alice"], on: executor)
            _ = try await executor.attach(userID: "u_Alice", deviceID: "phone", platform: "ios", brokerID: "here",
                                          now: 1_000)
            _ = try await executor.attach(userID: "u_Alice", deviceID: "tablet", platform: "ios", brokerID: "here",
                                          now: 1_000)
            try await executor.detach(userID: "u_Alice", deviceID: "tablet", brokerID: "here", now: 1_500)
            let held = [DeviceKey(userID: "u_Alice", deviceID: "phone"), DeviceKey(userID: "u_Alice", deviceID: "tablet")]
            let repair = try await executor.reconcilePresence(brokerID: "here", held: held, offlineSince: [:],
                                                              now: 2_000)
            #expect(repair.removed.isEmpty)
            let online = try await executor.database.withConnection { connection in
                var devices: Set<String> = []
                let rows = try await connection.query(
                    "SELECT device_id FROM presence WHERE user_id = 'u_Alice' AND broker_id = 'here'",
                    logger: TestDatabase.logger)
                for try await device in rows.decode(String.self) { devices.insert(device) }
                return devices
            }
            #expect(online == ["phone", "tablet"])
        }
    }
}
