import Foundation
import LifeSignalProtocol
import Testing

/// How a cluster broker connects to PostgreSQL (issue 24 item 3): the hint listener's connection
/// is one beside the pool, and the password may come from a file or libpq's variables, never
/// shown.
@Suite("Cluster: connecting to PostgreSQL")
struct ClusterPostgresConnectionTests {
    static func withOption(_ url: String, _ option: String) -> String {
        url + (url.contains("?") ? "&" : "?") + option
    }

    /// OPERATIONS and postgres-setup.sql: a broker opens `pool` connections for its statements plus
    /// one that listens. With `?pool=1` the listener must not take the only one.
    @Test func poolOneStillServesWrites() throws {
        let database = try FreshDatabase()
        let broker = try BrokerProcess(arguments: ["--postgres", Self.withOption(database.url, "pool=1")])
        let alice = try Person("Alice", port: broker.port)
        let bob = try Person("Bob", port: broker.port)
        alice.add(bob, responder: true, dependent: false)
        let answer = bob.request(Op.pingSend, ["contactId": .string(alice.id)])
        #expect(answer?.okFields?["pingId"] != nil, "\(String(describing: answer))")
    }

    /// `--postgres-password-file`: read at start (the test server trusts any password, so a
    /// broker given one starts), refused when others may read it or the URL has one too.
    @Test func thePasswordFileOptionIsReadAndChecked() throws {
        let database = try FreshDatabase()
        let directory = TemporaryDirectory("pgpass")
        let file = directory.path + "/password"
        try "file-s3cret\n".write(toFile: file, atomically: true, encoding: .utf8)

        try FileManager.default.setAttributes([.posixPermissions: 0o644], ofItemAtPath: file)
        let open = try runBroker(["serve", "--port", "0", "--data-dir", directory.path, "--postgres", database.url,
                                  "--postgres-password-file", file])
        #expect(open.status == 64)
        #expect(open.stderr.contains("chmod 600 \(file)"), "\(open.stderr)")

        try FileManager.default.setAttributes([.posixPermissions: 0o600], ofItemAtPath: file)
        let twice = try runBroker(["serve", "--port", "0", "--data-dir", directory.path,
                                   "--postgres", database.url.replacingOccurrences(of: "postgres@", with: "postgres:url-s3cret@"),
                                   "--postgres-password-file", file])
        #expect(twice.status == 64)
        #expect(twice.stderr.contains("give it in one place"), "\(twice.stderr)")
        #expect(!twice.stderr.contains("s3cret"))

        let broker = try BrokerProcess(arguments: ["--postgres", database.url, "--postgres-password-file", file])
        #expect(!broker.loggedText.contains("s3cret"))
    }

    /// libpq's PGPASSFILE is honoured, and refused like libpq's when others may read it.
    @Test func anOpenPGPASSFILEStopsTheBroker() throws {
        let database = try FreshDatabase()
        let directory = TemporaryDirectory("pgpass")
        let file = directory.path + "/pgpass"
        try "*:*:*:*:pgpass-s3cret\n".write(toFile: file, atomically: true, encoding: .utf8)
        try FileManager.default.setAttributes([.posixPermissions: 0o644], ofItemAtPath: file)
        let outcome = try runBroker(["serve", "--port", "0", "--data-dir", directory.path, "--postgres", database.url],
                                    environment: ["PGPASSFILE": file])
        #expect(outcome.status == 1)
        #expect((outcome.stdout + outcome.stderr).contains("chmod 600 \(file)"), "\(outcome.stderr)")
    }
}
