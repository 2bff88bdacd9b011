import ArgumentParser
import Foundation

/// `lsclient load plot A.json [B.json…] -o plot.svg`: kept runs drawn one over another.
struct PlotLoadCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "plot",
        abstract: "Draw runs kept with --out into one SVG: latency by percentile, throughput and p99 over time.",
        discussion: """
            The latency plot is HdrHistogram's: each run's latency at every percentile, the \
            percentile axis logarithmic (90%, 99%, 99.9%…), so the tail is as visible as the median. \
            Runs are overlaid in the order given, named by their files.
            """)

    @Argument(help: "Runs written by load … --out.")
    var runs: [String]

    @Option(name: [.customShort("o"), .customLong("output")], help: "The SVG file to write.")
    var output: String

    func validate() throws {
        guard !runs.isEmpty else { throw ValidationError("name at least one run file") }
    }

    func run() throws {
        let records = try LoadRunner.orExit { try runs.map { path throws(CLIError) in try LoadRunRecord(path: path) } }
        try LoadRunner.orExit {
            try Data(LoadPlot.svg(records).utf8).write(to: URL(fileURLWithPath: output), options: .atomic)
        }
        Console.out("wrote \(output): \(records.count) run\(records.count == 1 ? "" : "s")")
    }
}
