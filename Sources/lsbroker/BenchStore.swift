import ArgumentParser
import Foundation
import LifeSignalBroker

/// `lsbroker bench-store`: the store's cost per ping with no network (StoreBenchmark).
struct BenchStore: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "bench-store", abstract: "Measure the SQLite store under ping.send's writes (for bench/).")

    @Option(help: "Responder → dependent pairs.")
    var pairs = 1_000

    @Option(help: "Pings measured (after a warm-up of a tenth as many).")
    var pings = 50_000

    @Option(help: "Pings submitted together (about one group commit).")
    var batch = 500

    @Option(name: .customLong("data-dir"), help: "Directory for the store (default: a temporary one, removed after).")
    var dataDirectory: String?

    func run() throws {
        let directory = dataDirectory ?? FileManager.default.temporaryDirectory
            .appendingPathComponent("bench-store-\(UUID().uuidString)").path
        defer { if dataDirectory == nil { try? FileManager.default.removeItem(atPath: directory) } }
        let result = try StoreBenchmark.run(directory: directory, pairs: pairs, pings: pings, batch: batch)
        print("pings: \(result.pings) in waves of \(batch), \(pairs) pairs")
        let rate = Int(Double(result.pings) / result.seconds)
        print("wall: \(String(format: "%.2f", result.seconds)) s, \(rate) pings/s")
        print("cpu: \(String(format: "%.1f", result.cpuMicrosecondsPerPing)) µs per ping")
        let calls = String(format: "%.2f", result.writeCallsPerPing)
        print("written: \(Int(result.bytesWrittenPerPing)) bytes per ping in \(calls) write calls")
        print("files: database \(result.databaseBytes / 1_048_576) MiB, WAL \(result.walBytes / 1_048_576) MiB")
        print("checkpoints: \(result.checkpointPasses) passes, \(result.walRestarts) WAL restarts")
    }
}
