import Foundation
import Histogram
import LifeSignalLoad
import LifeSignalProtocol
import LifeSignalVersion

/// `lsclient load … --out FILE`: the run as one JSON document, which `load plot` and `load
/// compare` read, and its latency percentiles beside it as FILE.hgrm, HdrHistogram's percentile
/// format (values in milliseconds), which HdrHistogram's own plotters read.
struct LoadRunFile {
    /// What the document says it is; a reader refuses any other.
    static let format = "lifesignal-load-run/1"

    let report: JSONValue
    let settings: JSONObject
    let series: [JSONValue]
    /// Request latencies; a run that times no request (flood) writes an empty one.
    let histogramUs: Histogram<UInt64>?

    init(report: LoadReport, settings: LoadSettings) {
        self.report = report.json
        self.settings = [
            "brokers": .array(settings.brokers.map { .string($0.description) }),
            "devices": .int(Int64(settings.devices)),
            "durationSec": .double(settings.durationSeconds),
            "warmupSec": .double(settings.warmupSeconds),
            "setupConcurrency": .int(Int64(settings.setupConcurrency)),
            "deviceOffset": .int(Int64(settings.deviceOffset)),
        ]
        series = report.series.map(\.json)
        histogramUs = report.histogramUs
    }

    /// `load flood`: connections held without a hello; no request is timed.
    init(flood report: JSONValue, settings: [String: JSONValue]) {
        self.report = report
        self.settings = JSONObject(settings.keys.sorted().map { ($0, settings[$0]!) })
        series = []
        histogramUs = nil
    }

    /// `run.json` → `run.hgrm`; a name without `.json` gets `.hgrm` added.
    static func percentilesPath(for path: String) -> String {
        (path.hasSuffix(".json") ? String(path.dropLast(5)) : path) + ".hgrm"
    }

    func write(to path: String) throws {
        let histogram = histogramUs ?? LoadStats.emptyHistogram()
        try Data(document(histogram: histogram)).write(to: URL(fileURLWithPath: path), options: .atomic)
        var percentiles = ""
        histogram.outputPercentileDistribution(to: &percentiles, outputValueUnitScalingRatio: 1_000)
        try Data(percentiles.utf8).write(to: URL(fileURLWithPath: Self.percentilesPath(for: path)), options: .atomic)
    }

    /// The whole histogram (every bucket's count, so that runs can be merged or replotted) goes in
    /// as JSONEncoder wrote it: its UInt64 fields (an empty one's minimum is UInt64.max) do not
    /// survive a JSONValue, whose integers are Int64.
    private func document(histogram: Histogram<UInt64>) throws -> [UInt8] {
        var bytes = fields.serialized()
        bytes.removeLast()  // the closing brace
        bytes += Array(#","latencyHistogramUs":"#.utf8) + Array(try JSONEncoder().encode(histogram)) + [UInt8(ascii: "}")]
        return bytes
    }

    private var fields: JSONValue {
        .object([
            "format": .string(Self.format),
            "lsclient": .string(LifeSignalVersion.current),
            "writtenAt": .string(ISO8601DateFormatter().string(from: Date())),
            "command": .array(CommandLine.arguments.dropFirst().map(JSONValue.string)),
            "settings": .object(settings),
            "report": report,
            "series": .array(series),
        ])
    }
}
