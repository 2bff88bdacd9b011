import Foundation
import Testing

/// Brokers of one cluster (`lsbroker serve --postgres`) on a fresh database of their own.
final class TestCluster: @unchecked Sendable {
    let database: FreshDatabase
    private(set) var brokers: [BrokerProcess] = []

    /// `count` brokers, `cluster-0` …, each with `arguments` besides its PostgreSQL URL and id.
    init(brokers count: Int, arguments: [String] = []) throws {
        database = try FreshDatabase()
        for index in 0..<count {
            brokers.append(try BrokerProcess(
                arguments: ["--postgres", database.url, "--broker-id", "cluster-\(index)"] + arguments))
        }
    }

    var databaseURL: String { database.url }
    var ports: [Int] { brokers.map(\.port) }

    @discardableResult
    func sql(_ statement: String) throws -> [String] { try database.sql(statement) }

    deinit {
        for broker in brokers { broker.stop(signal: SIGKILL) }
    }
}

/// A new empty database on the PostgreSQL server LIFESIGNAL_TEST_POSTGRES names (scripts/test
/// starts a throwaway one), dropped when this goes; so tests run in parallel.
final class FreshDatabase: @unchecked Sendable {
    let serverURL: String
    let url: String
    private let name: String

    struct NoServer: Error, CustomStringConvertible {
        var description: String { "LIFESIGNAL_TEST_POSTGRES is not set: run the tests with scripts/test" }
    }

    init() throws {
        guard let server = ProcessInfo.processInfo.environment["LIFESIGNAL_TEST_POSTGRES"] else { throw NoServer() }
        serverURL = server
        name = "c_" + UUID().uuidString.lowercased().replacingOccurrences(of: "-", with: "")
        try Self.psql(server, "CREATE DATABASE \(name)")
        let withoutOptions = Self.withoutOptions(server)
        let slash = withoutOptions.lastIndex(of: "/")!
        url = withoutOptions[..<slash] + "/" + name + server.dropFirst(withoutOptions.count)
    }

    /// Runs one statement; its output rows, one per line (`psql -At`).
    @discardableResult
    func sql(_ statement: String) throws -> [String] { try Self.psql(Self.withoutOptions(url), statement) }

    deinit {
        _ = try? Self.psql(serverURL, "DROP DATABASE \(name) WITH (FORCE)")
    }

    /// psql takes no `?pool=` option.
    private static func withoutOptions(_ url: String) -> String { String(url.prefix { $0 != "?" }) }

    @discardableResult
    private static func psql(_ url: String, _ statement: String) throws -> [String] {
        let (status, text) = try runCommand(
            URL(fileURLWithPath: "/usr/bin/env"),
            ["psql", withoutOptions(url), "-v", "ON_ERROR_STOP=1", "-At", "-c", statement])
        guard status == 0 else { throw PSQLFailed(statement: statement, output: text) }
        return text.split(separator: "\n").map(String.init)
    }

    struct PSQLFailed: Error, CustomStringConvertible {
        let statement: String
        let output: String
        var description: String { "psql failed on \(statement): \(output)" }
    }
}
