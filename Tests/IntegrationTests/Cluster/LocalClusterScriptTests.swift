import Foundation
import LifeSignalProtocol
import Testing

/// deploy/local-cluster as OPERATIONS shows it: it starts a PostgreSQL and brokers that serve one
/// user base, `kill` takes one down under its users (who go on through the next), `stop` ends all.
@Suite("deploy/local-cluster")
struct LocalClusterScriptTests {
    @Test func startKillAndStopAClusterOnOneMachine() throws {
        let directory = TemporaryDirectory("local-cluster")
        let base = 20_000 + Int.random(in: 0..<10_000)  // below the ephemeral ports the tests bind
        let started = try Self.script(["start", directory.path, "2", "\(base)"])
        #expect(started.status == 0, "\(started.output)")
        let list = try #require(started.output.split(separator: "\n").last { $0.hasPrefix("LSCLIENT_BROKER=") })
        let addresses = String(list.dropFirst("LSCLIENT_BROKER=".count))
        #expect(addresses == "127.0.0.1:\(base),127.0.0.1:\(base + 1)")
        // Each broker its own operations endpoint, BASE_PORT + 1000 upwards.
        for index in 0..<2 {
            let metrics = "http://127.0.0.1:\(base + 1_000 + index)"
            #expect(started.output.contains("127.0.0.1:\(base + index) metrics \(metrics)\n"), "\(started.output)")
            let scraped = try HTTPAnswer.get(metrics + "/metrics")
            #expect(scraped.status == 200 && scraped.body.contains("lifesignal_postgres_pool_size"))
        }

        let cli = LSClient(addresses: addresses)
        try cli.register("Alice")
        try cli.register("Bob")
        #expect(try cli.run(["--profile", "alice", "contacts", "add", try cli.qrCode(of: "bob"), "--responder"]).status == 0)
        #expect(try cli.run(["--profile", "bob", "ping", "alice"]).status == 0)

        #expect(try Self.script(["kill", directory.path, "0"]).status == 0)
        // The first broker is gone: lsclient goes on through the second.
        #expect(try cli.run(["--profile", "alice", "ping", "respond", "bob"]).status == 0)
        let notifications = try cli.run(["--profile", "bob", "--json", "notifications"])
        #expect(notifications.result?["notifications"]?.arrayValue?.first?.objectValue?["type"]?.stringValue
            == "pingResponse")

        #expect(try Self.script(["stop", directory.path]).status == 0)
        #expect(try cli.run(["--profile", "bob", "keepalive"]).status == 2)
    }

    /// Runs deploy/local-cluster with the lsbroker under test; its exit status and output.
    static func script(_ arguments: [String]) throws -> (status: Int32, output: String) {
        try runCommand(repositoryRoot.appendingPathComponent("deploy/local-cluster"), arguments,
                       environment: ["LSBROKER": Binaries.broker.path])
    }
}
