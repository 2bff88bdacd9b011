import LifeSignalProtocol
import Testing

@testable import LifeSignalClient

/// A client given several brokers moves past one it cannot reach or that never answers, on a first
/// connect and after a drop (issue 24, items 14 and 18).
/// The time limit guards against a hang and is longer than a sanitized run, whose blocking
/// integration tests can hold the cooperative pool, and so these async tests, for minutes.
@Suite(.timeLimit(.minutes(20)))
struct NextBrokerTests {
    /// Generous beside a fake broker's answer in this process, on busy cores under a sanitizer
    /// too (a keepalive test there once waited 800 ms for one); short beside the test's time.
    static let responseTimeoutMs: UInt64 = 5_000

    func configuration(_ ports: [Int], reconnect: ReconnectPolicy) -> ClientConfiguration {
        ClientConfiguration(
            endpoints: ports.map { Endpoint(host: "127.0.0.1", port: $0) }, userID: "u_alice", token: "secret",
            deviceID: "phone", reconnect: reconnect, responseTimeoutMs: Self.responseTimeoutMs)
    }

    /// How `watch` reconnects (without `--wait`), with short delays.
    static let watching = ReconnectPolicy(initialDelayMs: 1, maxDelayMs: 20)

    /// A port nothing listens on.
    func closedPort() throws -> ClosedPort { try ClosedPort() }

    /// A broker that accepts and reads, and never answers (frozen, or wedged).
    func silentBroker(connections: Int = 4) throws -> FakeBroker {
        try FakeBroker(scripts: Array(repeating: { connection in
            while true { _ = try connection.read() }
        }, count: connections))
    }

    static let greets = FakeBroker.greetsAndStays(snapshot: Fixtures.snapshot(seq: 10))

    @Test func aFirstConnectThatRetriesLaterStillTriesTheNextBrokerNow() async throws {
        let broker = try FakeBroker(scripts: [Self.greets])
        defer { broker.stop() }
        let closed = try closedPort()
        defer { withExtendedLifetime(closed) {} }
        let client = try LifeSignalClient(configuration: configuration([closed.port, broker.port], reconnect: Self.watching))
        try await client.connect()
        #expect(await client.endpoint.port == broker.port)
        await client.close()
    }

    @Test(arguments: [ReconnectPolicy.disabled, watching])
    func aBrokerThatNeverAnswersHelloIsLeftForTheNext(reconnect: ReconnectPolicy) async throws {
        let silent = try silentBroker()
        defer { silent.stop() }
        let broker = try FakeBroker(scripts: [Self.greets])
        defer { broker.stop() }
        let client = try LifeSignalClient(configuration: configuration([silent.port, broker.port], reconnect: reconnect))
        try await client.connect()
        #expect(await client.endpoint.port == broker.port)
        await client.close()
    }

    @Test func aFirstConnectToNoBrokerThatAnswersFailsWithTimedOut() async throws {
        let silent = try silentBroker()
        defer { silent.stop() }
        let client = try LifeSignalClient(configuration: configuration([silent.port], reconnect: .disabled))
        await #expect {
            try await client.connect()
        } throws: { error in
            guard case LifeSignalClientError.timedOut(let reason) = error else { return false }
            return reason == "no answer to hello from 127.0.0.1:\(silent.port) within \(Self.responseTimeoutMs) ms"
        }
        await client.close()
    }

    @Test func aRequestTheBrokerNeverAnswersFailsWithTimedOut() async throws {
        let broker = try FakeBroker(scripts: [{ connection in
            // A heartbeat of a day: no keepalive falls due however long this test's task waits for
            // a thread between connect and checkin, so the checkin is the request that times out.
            try connection.greet(lastSeq: 10, snapshot: Fixtures.snapshot(seq: 10), heartbeatMs: 86_400_000)
            while true { _ = try connection.read() }  // wedged: reads requests, answers none
        }])
        defer { broker.stop() }
        let client = try LifeSignalClient(configuration: configuration([broker.port], reconnect: .disabled))
        try await client.connect()
        await #expect {
            try await client.request(Op.checkin)
        } throws: { error in
            guard case LifeSignalClientError.timedOut(let reason) = error else { return false }
            return reason.hasPrefix("no answer to checkin from ")
        }
        #expect(await !client.isConnected)
        await client.close()
    }

    @Test func aReconnectThatReachesASilentBrokerComesBackToTheOneThatAnswers() async throws {
        let broker = try FakeBroker(scripts: [
            { connection in try connection.greet(lastSeq: 10, snapshot: Fixtures.snapshot(seq: 10)) },  // then hangs up
            Self.greets,
        ])
        defer { broker.stop() }
        let silent = try silentBroker()
        defer { silent.stop() }
        let client = try LifeSignalClient(configuration: configuration([broker.port, silent.port], reconnect: Self.watching))
        var events = client.events.makeAsyncIterator()
        try await client.connect()
        let summaries = await events.summaries(throughConnected: 2)
        #expect(summaries.first == "snapshot 10")
        #expect(summaries.last == "connected 10")
        #expect(await client.endpoint.port == broker.port)
        await client.close()
    }
}
