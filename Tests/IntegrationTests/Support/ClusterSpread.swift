import Foundation
import LifeSignalUV

/// With LIFESIGNAL_TEST_ON_POSTGRES=N (N > 1), a test's broker is a cluster of N brokers on one
/// fresh database, and the connections a test opens to "its broker" are dealt round robin over
/// them, so one user's devices sit on different brokers (`scripts/test`'s cluster pass).
///
/// A keepalive is a barrier only for what its own broker has sent; an event committed through
/// another broker reaches this one a moment later. So settling a device on a cluster also waits
/// until it has every event up to its user's head as the database holds it (`users.seq`).
enum ClusterSpread {
    /// One object shared by all its ports' entries, so the count of connections dealt is one.
    private final class Cluster: @unchecked Sendable {  // mutated only under `clusters`' lock
        let ports: [Int]
        let database: FreshDatabase
        var dealt = 0

        init(ports: [Int], database: FreshDatabase) {
            self.ports = ports
            self.database = database
        }
    }

    // Locked, not Synchronization.Mutex: ThreadSanitizer sees a pthread mutex (see Locked).
    private static let clusters = Locked<[Int: Cluster]>([:])

    /// Brokers per test broker: 1 unless LIFESIGNAL_TEST_ON_POSTGRES names more.
    static var brokersPerTest: Int {
        Int(ProcessInfo.processInfo.environment["LIFESIGNAL_TEST_ON_POSTGRES"] ?? "") ?? 1
    }

    /// Makes `ports` one cluster: a connection to any of them may be dealt to any.
    static func register(ports: [Int], database: FreshDatabase) {
        let cluster = Cluster(ports: ports, database: database)
        clusters.withLock { clusters in
            for port in ports { clusters[port] = cluster }
        }
    }

    static func unregister(ports: [Int]) {
        clusters.withLock { clusters in
            for port in ports { clusters[port] = nil }
        }
    }

    /// The port a new connection to `port` goes to: the next broker of its cluster, if it has one.
    static func deal(_ port: Int) -> Int {
        clusters.withLock { clusters in
            guard let cluster = clusters[port] else { return port }
            defer { cluster.dealt += 1 }
            return cluster.ports[cluster.dealt % cluster.ports.count]
        }
    }

    /// The addresses of `port`'s cluster in the order the next client should try them (each
    /// client starts at another broker), or nil when `port` is a lone broker.
    static func addresses(startingAt port: Int) -> [String]? {
        let ports: [Int]? = clusters.withLock { clusters in
            guard let cluster = clusters[port] else { return nil }
            return cluster.ports
        }
        guard let ports else { return nil }
        let first = deal(port)
        let start = ports.firstIndex(of: first) ?? 0
        return (ports[start...] + ports[..<start]).map { "127.0.0.1:\($0)" }
    }

    /// The user's head seq in the database of `port`'s cluster, or nil when `port` is a lone broker.
    static func head(of userID: String, port: Int) -> Int64? {
        let database: FreshDatabase? = clusters.withLock { $0[port]?.database }
        guard let database, userID.allSatisfy({ $0.isLetter || $0.isNumber || $0 == "_" }) else { return nil }
        return (try? database.sql("SELECT seq FROM users WHERE id = '\(userID)'"))?.first.flatMap { Int64($0) }
    }
}
