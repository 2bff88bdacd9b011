import LifeSignalProtocol
import Testing

@testable import LifeSignalClient

/// The client actor against a scripted fake broker on loopback: the real socket, loop and timers,
/// no real broker.
/// The time limit guards against a hang and is longer than a sanitized run, whose blocking
/// integration tests can hold the cooperative pool, and so these async tests, for minutes.
@Suite(.timeLimit(.minutes(20)))
struct LifeSignalClientTests {
    /// Fast retries: the tests wait for reconnects, they do not time them.
    func configuration(port: Int, state: DeviceState? = nil) -> ClientConfiguration {
        ClientConfiguration(
            host: "127.0.0.1", port: port, userID: "u_alice", token: "secret", deviceID: "phone",
            initialState: state, reconnect: ReconnectPolicy(initialDelayMs: 1, maxDelayMs: 20))
    }

    @Test func connectAppliesTheSnapshotAndCloseEndsTheStream() async throws {
        let notes = ScriptNotes()
        let broker = try FakeBroker(scripts: [{ connection in
            notes.record(try connection.greet(lastSeq: 10, snapshot: Fixtures.snapshot(seq: 10)))
            connection.waitForClose()
        }])
        defer { broker.stop() }
        let client = try LifeSignalClient(configuration: configuration(port: broker.port))
        let hello = try await client.connect()
        #expect(hello.lastSeq == 10)
        #expect(await client.state == Fixtures.state(seq: 10))
        #expect(await client.isConnected)
        await client.close()
        var events = client.events.makeAsyncIterator()
        #expect(await events.summaries { _ in false } == ["snapshot 10", "connected 10", "disconnected - final"])
        #expect(notes.recorded(op: "hello").first?["resume"] == nil)
    }

    @Test func aSavedStateResumesWithItsSeq() async throws {
        let notes = ScriptNotes()
        let broker = try FakeBroker(scripts: [{ connection in
            notes.record(try connection.greet(lastSeq: 11))
            try connection.event(seq: 11, EventName.contactRemoved, ["contactId": "u_bob"])
            connection.waitForClose()
        }])
        defer { broker.stop() }
        let client = try LifeSignalClient(configuration: configuration(port: broker.port, state: Fixtures.state(seq: 10)))
        try await client.connect()
        #expect(notes.recorded(op: "hello").first?["resume"] == 10)
        #expect(await client.state?.lastSeq == 11)
        #expect(await client.state?.contacts["u_bob"] == nil)
        await client.close()
    }

    @Test func requestsArePipelinedAndAnsweredInOrder() async throws {
        let broker = try FakeBroker(scripts: [{ connection in
            try connection.greet(lastSeq: 10, snapshot: Fixtures.snapshot(seq: 10))
            // Read all twenty before answering any: they can only all arrive if they are in flight together.
            let requests = try (0..<20).map { _ in try connection.read(op: "test.echo") }
            for request in requests { try connection.ok(request, ["n": request["n"] ?? .null]) }
            connection.waitForClose()
        }])
        defer { broker.stop() }
        let client = try LifeSignalClient(configuration: configuration(port: broker.port))
        try await client.connect()
        try await withThrowingTaskGroup(of: Void.self) { group in
            for n in 0..<20 {
                group.addTask {
                    let result = try await client.request("test.echo", ["n": .int(Int64(n))])
                    #expect(result["n"] == .int(Int64(n)))
                }
            }
            try await group.waitForAll()
        }
        await client.close()
    }

    @Test func brokerErrorsAreThrownWithTheirCode() async throws {
        let broker = try FakeBroker(scripts: [{ connection in
            try connection.greet(lastSeq: 10, snapshot: Fixtures.snapshot(seq: 10))
            let request = try connection.read(op: Op.contactsAdd)
            try connection.error(rid: request["rid"], .notFound("no user has that QR code"))
            connection.waitForClose()
        }])
        defer { broker.stop() }
        let client = try LifeSignalClient(configuration: configuration(port: broker.port))
        try await client.connect()
        await #expect(throws: LifeSignalClientError.server(.notFound("no user has that QR code"))) {
            try await client.addContact(qrCode: "NOPE", isResponder: true, isDependent: false)
        }
        #expect(await client.isConnected)
        await client.close()
    }

    @Test func aDropReconnectsAndResumesFromTheLastAppliedSeq() async throws {
        let notes = ScriptNotes()
        let broker = try FakeBroker(scripts: [
            { connection in
                notes.record(try connection.greet(lastSeq: 10, snapshot: Fixtures.snapshot(seq: 10)))
                try connection.event(seq: 11, EventName.contactRemoved, ["contactId": "u_bob"])
                // Returning closes the connection.
            },
            { connection in
                notes.record(try connection.greet(lastSeq: 13))
                try connection.event(seq: 12, EventName.notificationsReadAll, ["count": 1])
                try connection.event(seq: 13, EventName.contactRemoved, ["contactId": "u_carol"])
                connection.waitForClose()
            },
        ])
        defer { broker.stop() }
        let client = try LifeSignalClient(configuration: configuration(port: broker.port))
        var events = client.events.makeAsyncIterator()
        try await client.connect()
        #expect(await events.summaries(throughConnected: 2) == [
            "snapshot 10", "connected 10", "event 11 contact.removed", "disconnected connection_lost retrying",
            "reconnecting 1 connection_lost",
            "event 12 notifications.readAll", "event 13 contact.removed", "connected 13",
        ])
        #expect(notes.recorded(op: "hello").map { $0["resume"] } == [nil, 11])
        let state = await client.state
        #expect(state?.lastSeq == 13)
        #expect(state?.contacts.isEmpty == true)
        #expect(state?.unreadCount == 0)
        await client.close()
    }

    @Test func aSeqGapDropsAndResumesBeforeTheGap() async throws {
        let notes = ScriptNotes()
        let broker = try FakeBroker(scripts: [
            { connection in
                try connection.greet(lastSeq: 10, snapshot: Fixtures.snapshot(seq: 10))
                try connection.event(seq: 12, EventName.contactRemoved, ["contactId": "u_bob"])
                connection.waitForClose()
            },
            { connection in
                notes.record(try connection.greet(lastSeq: 12))
                try connection.event(seq: 11, EventName.notificationsReadAll, ["count": 1])
                try connection.event(seq: 12, EventName.contactRemoved, ["contactId": "u_bob"])
                connection.waitForClose()
            },
        ])
        defer { broker.stop() }
        let client = try LifeSignalClient(configuration: configuration(port: broker.port))
        var events = client.events.makeAsyncIterator()
        try await client.connect()
        #expect(await events.summaries(throughConnected: 2) == [
            "snapshot 10", "connected 10", "disconnected sequence_gap retrying", "reconnecting 1 sequence_gap",
            "event 11 notifications.readAll", "event 12 contact.removed", "connected 12",
        ])
        #expect(notes.recorded(op: "hello").first?["resume"] == 10)
        await client.close()
    }

    @Test func requestsInFlightFailWhenTheConnectionDrops() async throws {
        let notes = ScriptNotes()
        let broker = try FakeBroker(scripts: [
            { connection in
                try connection.greet(lastSeq: 10, snapshot: Fixtures.snapshot(seq: 10))
                notes.record(try connection.read(op: Op.contactsList))
            },
            { connection in
                try connection.greet(lastSeq: 10)
                connection.waitForClose()
            },
        ])
        defer { broker.stop() }
        let client = try LifeSignalClient(configuration: configuration(port: broker.port))
        var events = client.events.makeAsyncIterator()
        try await client.connect()
        await #expect {
            _ = try await client.listContacts()
        } throws: { error in
            if case LifeSignalClientError.connectionLost = error { return true }
            return false
        }
        #expect(await events.summaries(throughConnected: 2) == [
            "snapshot 10", "connected 10", "disconnected connection_lost retrying", "reconnecting 1 connection_lost",
            "connected 10",
        ])
        await client.close()
    }

    @Test func replacedStopsReconnecting() async throws {
        let broker = try FakeBroker(scripts: [{ connection in
            try connection.greet(lastSeq: 10, snapshot: Fixtures.snapshot(seq: 10))
            try connection.error(rid: nil, .replaced("device 'phone' connected again"))
        }])
        defer { broker.stop() }
        let client = try LifeSignalClient(configuration: configuration(port: broker.port))
        var events = client.events.makeAsyncIterator()
        try await client.connect()
        #expect(await events.summaries { if case .disconnected = $0 { true } else { false } } == [
            "snapshot 10", "connected 10", "disconnected replaced final",
        ])
        #expect(await !client.isConnected)
        await #expect(throws: LifeSignalClientError.notConnected) { try await client.keepalive() }
        await client.close()
    }

    @Test func badCredentialsFailConnect() async throws {
        let broker = try FakeBroker(scripts: [{ connection in
            let hello = try connection.read(op: Op.hello)
            try connection.error(rid: hello["rid"], .unauthenticated("unknown user or wrong token"))
        }])
        defer { broker.stop() }
        let client = try LifeSignalClient(configuration: configuration(port: broker.port))
        await #expect(throws: LifeSignalClientError.server(.unauthenticated("unknown user or wrong token"))) {
            try await client.connect()
        }
        await client.close()
    }

    @Test func aRefusedConnectionFailsConnect() async throws {
        let closed = try ClosedPort()
        defer { withExtendedLifetime(closed) {} }
        let client = try LifeSignalClient(configuration: configuration(port: closed.port))
        await #expect {
            try await client.connect()
        } throws: { error in
            if case LifeSignalClientError.connectionFailed = error { return true }
            return false
        }
        await client.close()
    }

    @Test func byeEndsTheSessionWithoutReconnecting() async throws {
        let broker = try FakeBroker(scripts: [{ connection in
            try connection.greet(lastSeq: 10, snapshot: Fixtures.snapshot(seq: 10))
            try connection.ok(try connection.read(op: Op.bye))
        }])
        defer { broker.stop() }
        let client = try LifeSignalClient(configuration: configuration(port: broker.port))
        var events = client.events.makeAsyncIterator()
        try await client.connect()
        try await client.bye()
        #expect(await events.summaries { if case .disconnected = $0 { true } else { false } } == [
            "snapshot 10", "connected 10", "disconnected - final",
        ])
        #expect(await !client.isConnected)
        await client.close()
    }

    @Test func anIdleClientSendsKeepalives() async throws {
        let notes = ScriptNotes()
        let broker = try FakeBroker(scripts: [{ connection in
            // A keepalive after 1 s idle. Not less: the client drops a broker silent for 4 × that,
            // and a loop held up that long under a sanitizer dropped it before the first keepalive.
            try connection.greet(lastSeq: 10, snapshot: Fixtures.snapshot(seq: 10), heartbeatMs: 2_000)
            let keepalive = try connection.read(op: Op.keepalive)
            try connection.ok(keepalive, ["serverTime": 1])
            notes.record(keepalive)
            connection.waitForClose()
        }])
        defer { broker.stop() }
        let client = try LifeSignalClient(configuration: configuration(port: broker.port))
        try await client.connect()
        // Nothing is sent after hello: the only way the broker sees a keepalive is the idle timer.
        var notesIterator = notes.notes.makeAsyncIterator()
        #expect(await notesIterator.next() == Op.keepalive)
        await client.close()
    }

    @Test func keepalivesBetweenRequestsDoNotAnswerThem() async throws {
        let notes = ScriptNotes()
        let broker = try FakeBroker(scripts: [{ connection in
            // Keepalives every 2 s; the client gives up on a broker silent for 8 s, a margin no
            // sanitized run on busy cores has used up (at 400 ms, one did).
            try connection.greet(lastSeq: 10, snapshot: Fixtures.snapshot(seq: 10), heartbeatMs: 4_000)
            // Hold the answer until the idle timer has sent a keepalive behind the request.
            let echo = try connection.read(op: "test.echo")
            let keepalive = try connection.read(op: Op.keepalive)
            notes.record(keepalive)
            try connection.ok(echo, ["n": 1])
            try connection.ok(keepalive, ["serverTime": 1])
            // Then one sent while the client is idle between its requests.
            let idle = try connection.read(op: Op.keepalive)
            try connection.ok(idle, ["serverTime": 2])
            notes.record(idle)
            try connection.ok(try connection.read(op: "test.echo"), ["n": 2])
            connection.waitForClose()
        }])
        defer { broker.stop() }
        let client = try LifeSignalClient(configuration: configuration(port: broker.port))
        try await client.connect()
        #expect(try await client.request("test.echo")["n"] == 1)
        var notesIterator = notes.notes.makeAsyncIterator()
        #expect(await notesIterator.next() == Op.keepalive)
        #expect(await notesIterator.next() == Op.keepalive)
        #expect(try await client.request("test.echo")["n"] == 2)
        #expect(await client.isConnected)
        await client.close()
    }

    @Test func registerUsesAConnectionWithoutHello() async throws {
        let notes = ScriptNotes()
        let broker = try FakeBroker(scripts: [{ connection in
            let request = try connection.read()
            notes.record(request)
            try connection.ok(request, ["user": Fixtures.alice.json, "token": "tok"])
            connection.waitForClose()
        }])
        defer { broker.stop() }
        let registration = try await LifeSignalClient.register(
            host: "127.0.0.1", port: broker.port, name: "Alice", phone: "+15550100")
        #expect(registration == Registration(user: Fixtures.alice, token: "tok"))
        let request = try #require(notes.recorded.first)
        #expect(request["op"] == "register")
        #expect(request["name"] == "Alice")
        #expect(request["phone"] == "+15550100")
    }

    @Test func typedHelpersSendTheDocumentedFields() async throws {
        let notes = ScriptNotes()
        let broker = try FakeBroker(scripts: [{ connection in
            try connection.greet(lastSeq: 10, snapshot: Fixtures.snapshot(seq: 10))
            var user = Fixtures.alice
            user.phone = nil
            let update = try connection.read(op: Op.profileUpdate)
            notes.record(update)
            try connection.ok(update, ["user": user.json])
            let rotate = try connection.read(op: Op.qrRotate)
            try connection.ok(rotate, ["qrCode": "NEWCODE"])
            let devices = try connection.read(op: Op.devicesList)
            try connection.ok(devices, ["devices": [DeviceInfo(device: "phone", hasToken: false, online: true).json]])
            connection.waitForClose()
        }])
        defer { broker.stop() }
        let client = try LifeSignalClient(configuration: configuration(port: broker.port))
        try await client.connect()
        let user = try await client.updateProfile(name: "Alice", phone: .clear, checkInIntervalSec: 3_600)
        #expect(user.phone == nil)
        #expect(try await client.rotateQRCode() == "NEWCODE")
        #expect(try await client.listDevices().map(\.device) == ["phone"])
        let update = try #require(notes.recorded.first)
        #expect(update["phone"] == .null)
        #expect(update["name"] == "Alice")
        #expect(update["checkInIntervalSec"] == 3_600)
        #expect(update["preferences"] == nil)
        await client.close()
    }
}
