import ArgumentParser
import LifeSignalLoad
import LifeSignalProtocol

/// `lsclient load compare A.json B.json`: two runs kept with `--out`, side by side.
struct CompareLoadCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "compare",
        abstract: "Two runs kept with --out side by side: each figure of both, and the second's over the first's.",
        discussion: """
            Compare runs of one machine taken close together: figures of runs far apart in time, or \
            on a busy machine, differ for reasons of their own.
            """)

    @Argument(help: "The run to compare against (a file written by load … --out).")
    var first: String

    @Argument(help: "The run compared with it.")
    var second: String

    @Flag(help: "One JSON document instead of the table.")
    var json = false

    func run() throws {
        let (a, b) = try LoadRunner.orExit { (try LoadRunRecord(path: first), try LoadRunRecord(path: second)) }
        let scenarios = (a.report["scenario"]?.stringValue ?? "?", b.report["scenario"]?.stringValue ?? "?")
        if scenarios.0 != scenarios.1 {
            Console.err("note: the runs are of different scenarios (\(scenarios.0), \(scenarios.1))")
        }
        let rows = LoadComparison.figures.compactMap { figure -> LoadComparison.Row? in
            let (x, y) = (figure.value(a), figure.value(b))
            return x == nil && y == nil ? nil : LoadComparison.Row(figure: figure, a: x, b: y)
        }
        if json {
            Console.json(.object([
                "a": .string(a.name), "b": .string(b.name),
                "figures": .array(rows.map(\.json)),
            ]))
        } else {
            Console.out("| figure | \(a.name) | \(b.name) | \(b.name) / \(a.name) |")
            Console.out("|---|---|---|---|")
            Console.out("| scenario | \(scenarios.0) | \(scenarios.1) | |")
            for row in rows { Console.out(row.tableLine) }
        }
    }
}

/// The figures `load compare` sets side by side, read from each run's report.
enum LoadComparison {
    struct Figure: Sendable {
        let key: String
        let label: String
        let unit: String
        let value: @Sendable (LoadRunRecord) -> Double?

        init(_ key: String, _ label: String, unit: String = "", _ value: @escaping @Sendable (LoadRunRecord) -> Double?) {
            (self.key, self.label, self.unit, self.value) = (key, label, unit, value)
        }

        init(_ key: String, _ label: String, unit: String = "", at path: String...) {
            self.init(key, label, unit: unit) { $0.figure(path) }
        }
    }

    struct Row {
        let figure: Figure
        let a: Double?
        let b: Double?

        var ratio: Double? {
            guard let a, let b, a != 0 else { return nil }
            return b / a
        }

        var tableLine: String {
            let ratioText = ratio.map { NumberFormat.fixed($0, 2) + "×" } ?? "—"
            return "| \(figure.label) | \(text(a)) | \(text(b)) | \(ratioText) |"
        }

        private func text(_ value: Double?) -> String {
            guard let value else { return "—" }
            // Milliseconds and more read better in their own unit.
            if figure.unit == "µs" && value >= 1_000 { return NumberFormat.latency(microseconds: Int64(value.rounded())) }
            let number = value == value.rounded() && abs(value) < 1e15
                ? NumberFormat.grouped(Int64(value)) : NumberFormat.fixed(value, 2)
            return figure.unit.isEmpty ? number : number + " " + figure.unit
        }

        var json: JSONValue {
            .object([
                "figure": .string(figure.key),
                "a": a.map(JSONValue.double) ?? .null, "b": b.map(JSONValue.double) ?? .null,
                "ratio": ratio.map { .double(NumberFormat.rounded($0, 4)) } ?? .null,
            ])
        }
    }

    static let figures: [Figure] = [
        Figure("devices", "devices", at: "devices"),
        Figure("durationSec", "measured", unit: "s", at: "durationSec"),
        Figure("responsesPerSec", "responses/s", at: "responsesPerSec"),
        Figure("deliveredPerSec", "delivered/s", at: "deliveredPerSec"),
        Figure("p50", "latency p50", unit: "µs", at: "latencyUs", "p50"),
        Figure("p90", "latency p90", unit: "µs", at: "latencyUs", "p90"),
        Figure("p99", "latency p99", unit: "µs", at: "latencyUs", "p99"),
        Figure("p99.9", "latency p99.9", unit: "µs", at: "latencyUs", "p99.9"),
        Figure("max", "latency max", unit: "µs", at: "latencyUs", "max"),
        Figure("errors", "errors") { run in
            run.report["errors"]?.objectValue.map { errors in errors.compactMap { $0.value.doubleValue }.reduce(0, +) }
        },
        Figure("disconnects", "disconnects", at: "disconnects"),
        // load flood's.
        Figure("connected", "connections made", at: "connected"),
        Figure("closedByBroker", "closed by the broker", at: "closedByBroker"),
        Figure("closedAfterP50", "closed by the broker after (p50)", unit: "ms", at: "closedAfterMs", "p50"),
        Figure("closedAfterMax", "closed by the broker after (max)", unit: "ms", at: "closedAfterMs", "max"),
        Figure("openAtEnd", "open at the end", at: "openAtEnd"),
        Figure("loadGeneratorCpuUsPerResponse", "lsclient CPU per response", unit: "µs",
               at: "loadGenerator", "cpuUsPerResponse"),
        Figure("brokerCpuUsPerResponse", "lsbroker CPU per response", unit: "µs", at: "broker", "cpuUsPerResponse"),
        Figure("brokerRssKiB", "lsbroker RSS at the end", unit: "KiB", at: "broker", "rssKiB"),
        Figure("brokerStorageWrittenBytes", "lsbroker bytes written to storage", unit: "B",
               at: "broker", "storageWrittenBytes"),
    ]
}
