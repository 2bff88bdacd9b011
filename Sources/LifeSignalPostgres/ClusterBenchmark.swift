import Foundation
import LifeSignalEngine
import LifeSignalProtocol
import LifeSignalRules
import Logging

/// `lsbroker bench-cluster`: what the cluster executor does per second with no network in front
/// of it: `brokers` executors, each with its own pool as a broker has, run `ping.send` for pairs
/// of users (a responder pinging their dependent), `inFlight` at a time each, for `seconds`.
public enum ClusterBenchmark {
    public struct Result: Sendable {
        public var pings: Int
        public var seconds: Double
        public var p50Ms: Double
        public var p99Ms: Double
        public var maxMs: Double
        /// This process's CPU (the executors and postgres-nio), per ping.
        public var cpuMicrosecondsPerPing: Double
    }

    /// `workTimeout` bounds each transaction as the broker's does (its default); a smoke run on
    /// busy cores gives it more.
    public static func run(url: PostgresURL, brokers: Int, pairs: Int, inFlight: Int, seconds: Double,
                           workTimeout: Duration = .seconds(5), logger: Logger) async throws -> Result {
        var databases: [ClusterDatabase] = []
        do {
            for _ in 0..<brokers {
                databases.append(try await ClusterDatabase.open(url, logger: logger, timeout: .seconds(120),
                                                                leaseTimeout: workTimeout, workTimeout: workTimeout))
            }
            let result = try await measure(on: databases, pairs: pairs, inFlight: inFlight, seconds: seconds,
                                           logger: logger)
            for database in databases { await database.close() }
            return result
        } catch {
            for database in databases { await database.close() }
            throw error
        }
    }

    private static func measure(on databases: [ClusterDatabase], pairs: Int, inFlight: Int, seconds: Double,
                                logger: Logger) async throws -> Result {
        let brokers = databases.count
        try await databases[0].migrate()
        let executors = databases.map { ClusterExecutor(database: $0, logger: logger) }
        let run = UUID().uuidString.prefix(8).lowercased()
        let pairIDs = (0..<pairs).map { ("u_r\(run)_\($0)", "u_d\(run)_\($0)") }
        for (responder, dependent) in pairIDs {
            for id in [responder, dependent] {
                try await executors[0].create(User(id: id, name: id, qrCode: "qr_" + id, createdAt: 0),
                                              tokenHash: Credentials.hash(token: id))
            }
            _ = try await executors[0].perform(as: responder, involving: .named([dependent]), now: 0) {
                step throws(ProtocolError) in
                try ContactRules.add(dependent, by: responder, qrCode: "qr_" + dependent, isResponder: false,
                                     isDependent: true, maxContacts: 0, in: &step)
            }
        }
        let cpuBefore = processCPU()
        let started = ContinuousClock.now
        let deadline = started + .milliseconds(Int(seconds * 1_000))
        let latencies = try await withThrowingTaskGroup(of: [Double].self) { group in
            for worker in 0..<(brokers * inFlight) {
                let executor = executors[worker % brokers]
                group.addTask {
                    var mine: [Double] = []
                    var next = worker
                    while ContinuousClock.now < deadline {
                        let (responder, dependent) = pairIDs[next % pairIDs.count]
                        next += brokers * inFlight
                        let sent = ContinuousClock.now
                        _ = try await executor.perform(as: responder, involving: .named([dependent]),
                                                       now: Int64(Date().timeIntervalSince1970 * 1_000)) {
                            step throws(ProtocolError) in
                            try PingRules.send(to: dependent, by: responder, in: &step)
                        }
                        mine.append(Double((ContinuousClock.now - sent).components.attoseconds) / 1e15
                                    + Double((ContinuousClock.now - sent).components.seconds) * 1e3)
                    }
                    return mine
                }
            }
            return try await group.reduce(into: [Double]()) { $0 += $1 }.sorted()
        }
        let elapsed = ContinuousClock.now - started
        let wall = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
        let cpu = processCPU() - cpuBefore
        func percentile(_ p: Double) -> Double {
            latencies.isEmpty ? 0 : latencies[min(latencies.count - 1, Int(Double(latencies.count) * p))]
        }
        return Result(pings: latencies.count, seconds: wall, p50Ms: percentile(0.5), p99Ms: percentile(0.99),
                      maxMs: latencies.last ?? 0, cpuMicrosecondsPerPing: cpu * 1e6 / Double(max(1, latencies.count)))
    }

    private static func processCPU() -> Double {
        var time = timespec()
        clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &time)
        return Double(time.tv_sec) + Double(time.tv_nsec) / 1e9
    }
}
