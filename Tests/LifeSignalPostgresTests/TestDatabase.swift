import Foundation
import LifeSignalPostgres
import Logging
import PostgresNIO

/// A fresh database of its own for one test, on the server LIFESIGNAL_TEST_POSTGRES names
/// (scripts/test starts a throwaway one), dropped afterwards; so tests run in parallel.
struct TestDatabase {
    struct NoServer: Error, CustomStringConvertible {
        var description: String { "LIFESIGNAL_TEST_POSTGRES is not set: run the tests with scripts/test" }
    }

    static var serverURL: PostgresURL {
        get throws {
            guard let text = ProcessInfo.processInfo.environment["LIFESIGNAL_TEST_POSTGRES"] else { throw NoServer() }
            return try PostgresURL(parsing: text)
        }
    }

    /// Far above what a connection takes: a guard against a hang while a test process shares two
    /// cores with a sanitized suite, not a timing assertion.
    static let openTimeout: Duration = .seconds(120)

    /// Opens `url` with the test timeout, for the lease and the work of a transaction too: the
    /// tests here are not about PostgreSQL's deadlines (the cluster suite's fault tests are), and
    /// a sanitized run on two busy cores takes longer than the broker's 5 s default.
    static func open(_ url: PostgresURL) async throws -> ClusterDatabase {
        try await ClusterDatabase.open(url, logger: logger, timeout: openTimeout,
                                       leaseTimeout: openTimeout, workTimeout: openTimeout)
    }

    static let logger: Logger = {
        var logger = Logger(label: "test-postgres")
        logger.logLevel = .critical
        return logger
    }()

    /// Runs `body` with the URL of a new empty database.
    static func withFresh<T>(_ body: (PostgresURL) async throws -> T) async throws -> T {
        let server = try serverURL
        let name = "t_" + UUID().uuidString.lowercased().replacingOccurrences(of: "-", with: "")
        let admin = try await open(server)
        try await admin.client.query(PostgresQuery(unsafeSQL: "CREATE DATABASE \(name)"), logger: logger).drain()
        var url = server
        url.database = name
        do {
            let result = try await body(url)
            try await admin.client.query(PostgresQuery(unsafeSQL: "DROP DATABASE \(name) WITH (FORCE)"), logger: logger)
                .drain()
            await admin.close()
            return result
        } catch {
            await admin.close()
            throw error
        }
    }
}

extension PostgresRowSequence {
    func drain() async throws { for try await _ in self {} }
}
