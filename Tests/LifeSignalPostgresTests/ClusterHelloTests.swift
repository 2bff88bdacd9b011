@testable import LifeSignalBroker
import LifeSignalEngine
import LifeSignalPostgres
import LifeSignalProtocol
import LifeSignalRules
import PostgresNIO
import Testing

/// What any broker of a cluster tells a device that says `hello` (§3, §11): credentials, and
/// exactly the events it missed or, when those are no longer kept, the whole state.
@Suite struct ClusterHelloTests {
    let cluster = ClusterExecutorTests()

    /// The account's token lets any device in; a device's own token (§12) only that device.
    @Test func onlyTheUsersTokenOrTheDevicesOwnAuthenticates() async throws {
        try await cluster.withCluster(brokers: 1) { brokers in
            let executor = brokers[0]
            try await executor.create(User(id: "u_Alice", name: "Alice", qrCode: "qr_Alice", createdAt: 0),
                                      tokenHash: Credentials.hash(token: "right"))
            #expect(try await executor.authenticate(userID: "u_Alice", token: "right", deviceID: "phone"))
            #expect(try await !executor.authenticate(userID: "u_Alice", token: "wrong", deviceID: "phone"))
            #expect(try await !executor.authenticate(userID: "u_Nobody", token: "right", deviceID: "phone"))
            try await executor.commit([.grantDeviceCredential(DeviceCredential(
                key: DeviceKey(userID: "u_Alice", deviceID: "tablet"), tokenHash: Credentials.hash(token: "tablets"),
                linkedAt: 1))])
            #expect(try await executor.authenticate(userID: "u_Alice", token: "tablets", deviceID: "tablet"))
            #expect(try await !executor.authenticate(userID: "u_Alice", token: "tablets", deviceID: "phone"))
            #expect(try await executor.authenticate(userID: "u_Alice", token: "right", deviceID: "tablet"))
        }
    }

    /// A device revoked (§12) while it says hello: its token is checked again under the lock as
    /// it is stored, and in the snapshot its catch-up is read from, so the revocation never
    /// reaches it in a catch-up (where nothing would close it) and it is not stored again.
    @Test func aHelloIsRefusedOnceTheDeviceIsRevokedAndDoesNotStoreItAgain() async throws {
        try await cluster.withCluster(brokers: 1) { brokers in
            let executor = brokers[0]
            try await executor.create(User(id: "u_Alice", name: "Alice", qrCode: "qr_Alice", createdAt: 0),
                                      tokenHash: Credentials.hash(token: "right"))
            let tablet = DeviceKey(userID: "u_Alice", deviceID: "tablet")
            try await executor.commit([.grantDeviceCredential(DeviceCredential(
                key: tablet, tokenHash: Credentials.hash(token: "tablets"), linkedAt: 1))])
            _ = try await executor.attach(userID: "u_Alice", deviceID: "tablet", platform: nil, brokerID: "b", now: 2,
                                          admitting: "tablets")
            #expect(try await executor.greeting(of: "u_Alice", resume: nil, admitting: ("tablet", "tablets")).head == 0)

            _ = try await executor.perform(as: "u_Alice", now: 3, reading: { connection, logger in
                try await ClusterRows.deviceInfos(of: "u_Alice", on: connection, logger: logger)
            }) { (step, devices) throws(ProtocolError) in
                try DeviceRules.revoke("tablet", of: "u_Alice", devices: devices, in: &step)
            }
            await #expect(throws: HelloNotAdmitted.self) {
                try await executor.greeting(of: "u_Alice", resume: 0, admitting: ("tablet", "tablets"))
            }
            await #expect(throws: HelloNotAdmitted.self) {
                try await executor.attach(userID: "u_Alice", deviceID: "tablet", platform: nil, brokerID: "b", now: 4,
                                          admitting: "tablets")
            }
            #expect(try await executor.devices(of: "u_Alice").isEmpty, "the refused hello stored nothing")
            // The account's token still lets a device of that name in.
            #expect(try await executor.greeting(of: "u_Alice", resume: 0, admitting: ("tablet", "right")).head == 1)
        }
    }

    @Test func aResumeGetsWhatWasMissedAndOtherwiseASnapshot() async throws {
        try await TestDatabase.withFresh { url in
            let database = try await TestDatabase.open(url)
            try await database.migrate()
            let executor = ClusterExecutor(database: database, logger: TestDatabase.logger, eventRetention: 5)
            try await cluster.register(["Alice", "Bob"], on: executor)
            _ = try await executor.perform(as: "u_Alice", involving: .named(["u_Bob"]), now: 1) { step throws(ProtocolError) in
                try ContactRules.add("u_Bob", by: "u_Alice", qrCode: "qr_Bob", isResponder: false, isDependent: true,
                                     maxContacts: 0, in: &step)
            }
            _ = try await executor.perform(as: "u_Bob", involving: .responders, now: 2) { step throws(ProtocolError) in
                try SafetyRules.checkIn(by: "u_Bob", in: &step)
            }
            // Alice has seqs 1...3 (contact.updated, notification.added, then Bob's check-in shown).
            guard case .events(let missed) = try await executor.catchUp(of: "u_Alice", resume: 1) else {
                Issue.record("a resume within the retention gets events")
                return
            }
            #expect(missed.map(\.seq) == [2, 3])
            guard case .events(let none) = try await executor.catchUp(of: "u_Alice", resume: 3) else {
                Issue.record("an up-to-date device gets no snapshot")
                return
            }
            #expect(none.isEmpty)
            for resume in [nil, 4, -1] as [Int64?] {
                guard case .snapshot(let frame) = try await executor.catchUp(of: "u_Alice", resume: resume) else {
                    Issue.record("resume \(String(describing: resume)) gets a snapshot")
                    continue
                }
                let snapshot = try Snapshot(json: try JSONValue.parse(Array(frame.dropFirst(4))))
                #expect(snapshot.seq == 3)
                #expect(snapshot.contacts.map(\.name) == ["Bob"])
                #expect(snapshot.contacts.first?.lastCheckInAt == 2, "derived from Bob's own row")
                #expect(snapshot.unreadCount == 1)
            }
            await database.close()
        }
    }

    @Test func aDeviceOnALiveBrokerIsNotPushedAndIsAgainOnceItLeaves() async throws {
        try await cluster.withCluster(brokers: 2) { brokers in
            let (a, b) = (brokers[0], brokers[1])
            try await cluster.register(["Alice", "Bob"], on: a)
            _ = try await a.perform(as: "u_Alice", involving: .named(["u_Bob"]), now: 1) { step throws(ProtocolError) in
                try ContactRules.add("u_Bob", by: "u_Alice", qrCode: "qr_Bob", isResponder: false, isDependent: true,
                                     maxContacts: 0, in: &step)
            }
            try await b.attach(userID: "u_Bob", deviceID: "phone", platform: "ios", brokerID: "b", now: 2)
            try await b.database.client.query(
                "UPDATE devices SET push_token = 'token-phone' WHERE user_id = 'u_Bob'", logger: TestDatabase.logger).drain()
            let ping = { @Sendable (executor: ClusterExecutor, now: Int64) in
                try await executor.perform(as: "u_Alice", involving: .named(["u_Bob"]), now: now) { step throws(ProtocolError) in
                    try PingRules.send(to: "u_Bob", by: "u_Alice", in: &step)
                }.pushes
            }
            // b is live while its heartbeat is younger than 15 s; a test slowed down that much (as
            // under ThreadSanitizer, ci18) must not see b die of it: b says it is alive first.
            try await b.heartbeat(brokerID: "b")
            #expect(try await ping(a, 3).isEmpty, "online on broker b")
            // Another broker may not end b's hold on the device.
            try await a.detach(userID: "u_Bob", deviceID: "phone", brokerID: "a", now: 4)
            try await b.heartbeat(brokerID: "b")
            #expect(try await ping(a, 5).isEmpty)
            try await b.detach(userID: "u_Bob", deviceID: "phone", brokerID: "b", now: 6)
            #expect(try await ping(a, 7).map(\.token) == ["token-phone"])
        }
    }
}
