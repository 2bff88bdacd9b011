import Foundation
import LifeSignalProtocol
import Testing

/// PostgreSQL lost under a running cluster broker (issue 13): requests that need it are answered
/// `internal` or `overloaded`, never a lie; connections stay up; nothing acknowledged is lost;
/// and the broker serves again by itself once PostgreSQL is back. A server of its own, since it
/// is stopped and started.
@Suite("Cluster: PostgreSQL lost and back", .serialized)
struct ClusterDatabaseLossTests {
    @Test func theBrokerAnswersInternalMeanwhileAndRecoversByItself() throws {
        let server = try ThrowawayPostgres()
        let broker = try BrokerProcess(arguments: ["--postgres", server.url, "--broker-id", "lonely", "--metrics-port", "0"])
        let alice = try Person("Alice", port: broker.port)
        let bob = try Person("Bob", port: broker.port, devices: 2)
        alice.add(bob, responder: true, dependent: false)
        var acknowledged = Set<String>()
        for _ in 0..<5 {
            if let id = bob.ok(Op.pingSend, ["contactId": .string(alice.id)])["pingId"]?.stringValue {
                acknowledged.insert(id)
            }
        }

        try server.stop()
        let answer = bob.request(Op.pingSend, ["contactId": .string(alice.id)])
        let code = answer?.errorCode
        #expect(code == .internal || code == .overloaded, "\(String(describing: answer))")
        // The connections stay up: the other device is answered without the store.
        #expect(bob.devices[1].request(Op.keepalive)?.okFields != nil)
        // Not ready, and it says why; alive all the same.
        let notReady = try broker.operations("/readyz")
        #expect(notReady.status == 503)
        #expect(notReady.body.contains("store: unreachable"), "\(notReady.body)")
        #expect(try broker.operations("/healthz").status == 200)

        try server.start()
        #expect(eventually(timeout: .seconds(60)) {
            if let id = bob.request(Op.pingSend, ["contactId": .string(alice.id)])?.okFields?["pingId"]?.stringValue {
                acknowledged.insert(id)
                return true
            }
            return false
        })
        #expect(try broker.operations("/readyz").status == 200)
        let metrics = try broker.operations("/metrics").body
        #expect(metrics.contains("lifesignal_postgres_lease_timeouts_total"), "\(metrics)")
        // Every acknowledged ping reached Alice, on her open connection and in her history.
        let page = alice.ok(Op.notificationsList)["notifications"]?.arrayValue ?? []
        let stored = Set(page.compactMap { $0.objectValue?["relatedPingID"]?.stringValue })
        #expect(acknowledged.isSubset(of: stored), "\(acknowledged.subtracting(stored))")
    }

    /// The device credential ops (§12) with PostgreSQL gone: `internal` or `overloaded`, never
    /// `unauthenticated` for a code that is fine, nor `not_found` for a device that is there; once
    /// it is back, the code signs the device in and the device is revoked.
    @Test func linkingAndRevokingAreAnsweredMeanwhileAndWorkOnceItIsBack() throws {
        let server = try ThrowawayPostgres()
        let broker = try BrokerProcess(arguments: ["--postgres", server.url, "--broker-id", "lonely"])
        let (alice, _) = try RawConnection.authenticated(port: broker.port)
        let code = try #require(alice.request(Op.deviceLink)?.okFields?["code"]?.stringValue)

        try server.stop()
        let refusedCodes: Set<ProtocolError.Code> = [.internal, .overloaded]
        let signin = try RawConnection(port: broker.port).request(Op.signin, ["code": .string(code), "device": "tablet"])
        #expect(signin?.errorCode.map(refusedCodes.contains) == true, "\(String(describing: signin))")
        let revoke = alice.request(Op.deviceRevoke, ["device": "raw"])
        #expect(revoke?.errorCode.map(refusedCodes.contains) == true, "\(String(describing: revoke))")
        let link = alice.request(Op.deviceLink)
        #expect(link?.errorCode.map(refusedCodes.contains) == true, "\(String(describing: link))")

        try server.start()
        let tablet = try RawConnection(port: broker.port)
        #expect(eventually(timeout: .seconds(60)) {
            tablet.request(Op.signin, ["code": .string(code), "device": "tablet"])?.okFields != nil
        }, "the code was not spent while the store was gone")
        #expect(alice.request(Op.deviceRevoke, ["device": "tablet"])?.okFields != nil)
    }

    @Test func aBrokerThatCannotReachPostgreSQLAtStartExitsWithAClearError() throws {
        let unused = "postgres://postgres@127.0.0.1:1/nothing"
        #expect {
            _ = try BrokerProcess(arguments: ["--postgres", unused])
        } throws: { error in
            "\(error)".contains("PostgreSQL is unreachable")
        }
    }
}

/// A PostgreSQL server of a test's own (scripts/throwaway-postgres), removed afterwards.
final class ThrowawayPostgres {
    let directory = TemporaryDirectory("postgres")
    private(set) var url = ""

    init() throws { try start() }

    func start() throws {
        try run("start")
        url = try String(contentsOfFile: directory.path + "/url", encoding: .utf8)
            .trimmingCharacters(in: .whitespacesAndNewlines)
    }

    func stop() throws { try run("stop") }

    /// Output goes nowhere: the server started inherits it, and a pipe would never end.
    func run(_ command: String) throws {
        let script = repositoryRoot.appendingPathComponent("scripts/throwaway-postgres")
        let process = Process()
        process.executableURL = script
        process.arguments = [command, directory.path]
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else { throw Failed(command: command) }
    }

    struct Failed: Error { let command: String }

    deinit { try? stop() }
}
