import ArgumentParser
import Foundation
import LifeSignalBroker
import LifeSignalPostgres
import LifeSignalUV
import Logging

/// `lsbroker bench-cluster`: the cluster executor's pings per second on a PostgreSQL
/// (ClusterBenchmark), without the network side.
struct BenchCluster: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "bench-cluster",
        abstract: "Measure the cluster executor on PostgreSQL under ping.send (for bench/).",
        discussion: "Creates its own users (ids unique to the run) in the database the URL names.")

    @Option(help: "postgres://user[:password]@host[:port]/database[?pool=N] [env: LSBROKER_POSTGRES]")
    var postgres: String?

    @Option(help: "Executors, each with its own connection pool, as separate brokers have.")
    var brokers = 3

    @Option(help: "Responder → dependent pairs.")
    var pairs = 1_000

    @Option(name: .customLong("in-flight"), help: "Pings each executor runs at once.")
    var inFlight = 8

    @Option(help: "Seconds measured.")
    var seconds = 10.0

    func validate() throws {
        guard brokers >= 1, pairs >= 1, inFlight >= 1, seconds > 0 else {
            throw ValidationError("--brokers, --pairs and --in-flight must be at least 1, --seconds above 0")
        }
    }

    func run() throws {
        guard let text = postgres ?? ProcessInfo.processInfo.environment["LSBROKER_POSTGRES"] else {
            throw ValidationError("--postgres URL (or LSBROKER_POSTGRES) is required")
        }
        let url: PostgresURL
        do { url = try PostgresURL(parsing: text) } catch { throw ValidationError(error.description) }
        var quiet = Logger(label: "lsbroker")
        quiet.logLevel = .warning
        let (brokers, pairs, inFlight, seconds, logger) = (brokers, pairs, inFlight, seconds, quiet)
        let result = try waitFor {
            try await ClusterBenchmark.run(
                url: url, brokers: brokers, pairs: pairs, inFlight: inFlight, seconds: seconds, logger: logger)
        }
        print("pings: \(result.pings) by \(brokers) executors × \(inFlight) in flight, \(pairs) pairs")
        print("wall: \(String(format: "%.2f", result.seconds)) s, \(Int(Double(result.pings) / result.seconds)) pings/s")
        print("latency: p50 \(String(format: "%.2f", result.p50Ms)) ms, p99 \(String(format: "%.2f", result.p99Ms)) ms, "
              + "max \(String(format: "%.1f", result.maxMs)) ms")
        print("cpu: \(String(format: "%.1f", result.cpuMicrosecondsPerPing)) µs per ping in this process")
    }
}
