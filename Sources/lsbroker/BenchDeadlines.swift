import ArgumentParser
import LifeSignalBroker

/// `lsbroker bench-deadlines`: the deadline scheduler's cost per change (bench/deadlines.sh).
struct BenchDeadlines: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "bench-deadlines", abstract: "Measure the check-in deadline scheduler (for bench/).")

    @Option(help: "How many deadlines.")
    var count = 1_000_000

    func run() throws {
        let result = try DeadlineBenchmark.run(count: count)
        print("deadlines: \(result.count)")
        print("schedule: \(Int(result.scheduleNsPerOp)) ns per deadline (one at a time)")
        print("move:     \(Int(result.moveNsPerOp)) ns per deadline")
        print("bulk load at start-up: \(Int(result.bulkLoadMs)) ms")
        print("memory:   \(Int(result.residentBytesPerDeadline)) bytes per scheduled deadline")
    }
}
