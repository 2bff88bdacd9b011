import Foundation
import Testing

/// Brokers of one cluster (`lsbroker serve --postgres`) on a fresh database of their own, on the
/// PostgreSQL server LIFESIGNAL_TEST_POSTGRES names (scripts/test starts a throwaway one); the
/// database is dropped when the cluster goes.
final class TestCluster: @unchecked Sendable {
    let serverURL: String
    let databaseURL: String
    private let database: String
    private(set) var brokers: [BrokerProcess] = []

    struct NoServer: Error, CustomStringConvertible {
        var description: String { "LIFESIGNAL_TEST_POSTGRES is not set: run the tests with scripts/test" }
    }

    /// `count` brokers, `cluster-0` …, each with `arguments` besides its PostgreSQL URL and id.
    init(brokers count: Int, arguments: [String] = []) throws {
        guard let server = ProcessInfo.processInfo.environment["LIFESIGNAL_TEST_POSTGRES"] else { throw NoServer() }
        serverURL = server
        database = "c_" + UUID().uuidString.lowercased().replacingOccurrences(of: "-", with: "")
        try Self.psql(server, "CREATE DATABASE \(database)")
        databaseURL = Self.replacingDatabase(of: server, with: database)
        for index in 0..<count {
            brokers.append(try BrokerProcess(
                arguments: ["--postgres", databaseURL, "--broker-id", "cluster-\(index)"] + arguments))
        }
    }

    var ports: [Int] { brokers.map(\.port) }

    /// Runs one statement on the cluster's database; its output rows, one per line (`psql -At`).
    @discardableResult
    func sql(_ statement: String) throws -> [String] {
        try Self.psql(Self.withoutOptions(databaseURL), statement)
    }

    deinit {
        for broker in brokers { broker.stop(signal: SIGKILL) }
        _ = try? Self.psql(serverURL, "DROP DATABASE \(database) WITH (FORCE)")
    }

    private static func replacingDatabase(of url: String, with name: String) -> String {
        let withoutOptions = withoutOptions(url)
        let slash = withoutOptions.lastIndex(of: "/")!
        let options = url.dropFirst(withoutOptions.count)
        return withoutOptions[..<slash] + "/" + name + options
    }

    /// psql takes no `?pool=` option.
    private static func withoutOptions(_ url: String) -> String {
        String(url.prefix { $0 != "?" })
    }

    @discardableResult
    private static func psql(_ url: String, _ statement: String) throws -> [String] {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["psql", withoutOptions(url), "-v", "ON_ERROR_STOP=1", "-At", "-c", statement]
        let output = Pipe()
        process.standardOutput = output
        process.standardError = output
        try process.run()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        let text = String(decoding: data, as: UTF8.self)
        guard process.terminationStatus == 0 else { throw PSQLFailed(statement: statement, output: text) }
        return text.split(separator: "\n").map(String.init)
    }

    struct PSQLFailed: Error, CustomStringConvertible {
        let statement: String
        let output: String
        var description: String { "psql failed on \(statement): \(output)" }
    }
}
