import Dispatch
import LifeSignalProtocol
import Testing

@testable import LifeSignalClient

/// What a client says while the broker is out of reach (`ClientEvent.reconnecting`), and a first
/// `connect()` that waits for a broker started after it (`ReconnectPolicy.retriesFirstConnect`).
/// The time limit guards against a hang and is longer than a sanitized run, whose blocking
/// integration tests can hold the cooperative pool, and so these async tests, for minutes.
@Suite(.timeLimit(.minutes(20)))
struct ReconnectingTests {
    func configuration(port: Int, retriesFirstConnect: Bool = false) -> ClientConfiguration {
        ClientConfiguration(
            host: "127.0.0.1", port: port, userID: "u_alice", token: "secret", deviceID: "phone",
            reconnect: ReconnectPolicy(initialDelayMs: 1, maxDelayMs: 20, retriesFirstConnect: retriesFirstConnect))
    }

    /// A port nothing listens on (for now).
    func closedPort() throws -> ClosedPort { try ClosedPort() }

    @Test func everyRetryIsAnnouncedWhileTheBrokerIsGone() async throws {
        let listenerClosed = DispatchSemaphore(value: 0)
        let broker = try FakeBroker(scripts: [{ connection in
            try connection.greet(lastSeq: 10, snapshot: Fixtures.snapshot(seq: 10))
            // Hang up only once nothing listens any more, so that every retry finds no broker.
            listenerClosed.wait()
        }])
        let client = try LifeSignalClient(configuration: configuration(port: broker.port))
        var events = client.events.makeAsyncIterator()
        try await client.connect()
        broker.stop()
        listenerClosed.signal()
        let summaries = await events.summaries { event in
            if case .reconnecting(3, _, _) = event { true } else { false }
        }
        #expect(summaries == [
            "snapshot 10", "connected 10", "disconnected connection_lost retrying", "reconnecting 1 connection_lost",
            // The attempts that follow fail to connect at all, and each says when the next one is.
            "reconnecting 2 connection_failed", "reconnecting 3 connection_failed",
        ])
        await client.close()
    }

    @Test func aFirstConnectFailsAtOnceByDefault() async throws {
        let closed = try closedPort()
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

    @Test func aFirstConnectWaitsForABrokerStartedLater() async throws {
        let closed = try closedPort()
        let client = try LifeSignalClient(configuration: configuration(port: closed.port, retriesFirstConnect: true))
        var events = client.events.makeAsyncIterator()
        let connecting = Task { try await client.connect() }
        let waiting = await events.summaries { event in
            if case .reconnecting(2, _, _) = event { true } else { false }
        }
        #expect(waiting == ["reconnecting 1 connection_failed", "reconnecting 2 connection_failed"])

        let broker = try FakeBroker(listeningOn: closed, scripts: [{ connection in
            try connection.greet(lastSeq: 10, snapshot: Fixtures.snapshot(seq: 10))
            connection.waitForClose()
        }])
        defer { broker.stop() }
        let hello = try await connecting.value
        #expect(hello.lastSeq == 10)
        #expect(await client.isConnected)
        let rest = await events.summaries { if case .connected = $0 { true } else { false } }
        #expect(rest.filter { !$0.hasPrefix("reconnecting") } == ["snapshot 10", "connected 10"])
        await client.close()
    }

    @Test func aWaitingFirstConnectStillFailsOnAFinalError() async throws {
        let closed = try closedPort()
        let client = try LifeSignalClient(configuration: configuration(port: closed.port, retriesFirstConnect: true))
        var events = client.events.makeAsyncIterator()
        let connecting = Task { try await client.connect() }
        _ = await events.summaries { if case .reconnecting = $0 { true } else { false } }
        let broker = try FakeBroker(listeningOn: closed, scripts: [{ connection in
            let hello = try connection.read(op: Op.hello)
            try connection.error(rid: hello["rid"], .unauthenticated("unknown user or wrong token"))
        }])
        defer { broker.stop() }
        await #expect(throws: LifeSignalClientError.server(.unauthenticated("unknown user or wrong token"))) {
            try await connecting.value
        }
        await client.close()
    }

    /// After a broker restart, devices race for the user's device slots: one that had a slot and
    /// lost the race waits and tries again (issue 24, item 19).
    @Test func aLiveDeviceRefusedForTooManyDevicesTriesAgain() async throws {
        let broker = try FakeBroker(scripts: [
            { connection in try connection.greet(lastSeq: 10, snapshot: Fixtures.snapshot(seq: 10)) },  // the restart
            { connection in
                let hello = try connection.read(op: Op.hello)
                try connection.error(rid: hello["rid"], .tooManyDevices("this user already has 10 devices"))
            },
            FakeBroker.greetsAndStays(),
        ])
        defer { broker.stop() }
        let client = try LifeSignalClient(configuration: configuration(port: broker.port))
        var events = client.events.makeAsyncIterator()
        try await client.connect()
        var connections = 0
        let summaries = await events.summaries { event in
            if case .connected = event { connections += 1 }
            if case .disconnected(_, false) = event { return true }  // given up
            return connections == 2
        }
        #expect(summaries == [
            "snapshot 10", "connected 10", "disconnected connection_lost retrying", "reconnecting 1 connection_lost",
            "reconnecting 2 too_many_devices", "connected 10",
        ])
        await client.close()
    }

    @Test func closeEndsAWaitingFirstConnect() async throws {
        let closed = try closedPort()
        defer { withExtendedLifetime(closed) {} }
        let client = try LifeSignalClient(configuration: configuration(port: closed.port, retriesFirstConnect: true))
        var events = client.events.makeAsyncIterator()
        let connecting = Task { try await client.connect() }
        _ = await events.summaries { if case .reconnecting = $0 { true } else { false } }
        await client.close()
        await #expect(throws: LifeSignalClientError.closed) { try await connecting.value }
    }
}
