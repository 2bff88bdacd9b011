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

    let report: LoadReport
    let settings: LoadSettings

    /// `run.json` → `run.hgrm`; a name without `.json` gets `.hgrm` added.
    static func percentilesPath(for path: String) -> String {
        (path.hasSuffix(".json") ? String(path.dropLast(5)) : path) + ".hgrm"
    }

    func write(to path: String) throws {
        let histogram = report.histogramUs ?? LoadStats.emptyHistogram()
        try Data(document(histogram: histogram).serialized()).write(to: URL(fileURLWithPath: path), options: .atomic)
        var percentiles = ""
        histogram.outputPercentileDistribution(to: &percentiles, outputValueUnitScalingRatio: 1_000)
        try Data(percentiles.utf8).write(to: URL(fileURLWithPath: Self.percentilesPath(for: path)), options: .atomic)
    }

    private func document(histogram: Histogram<UInt64>) throws -> JSONValue {
        // The whole histogram (every bucket's count), so that runs can be merged or replotted.
        let encoded = try JSONValue.parse(Array(JSONEncoder().encode(histogram)))
        return .object([
            "format": .string(Self.format),
            "lsclient": .string(LifeSignalVersion.current),
            "writtenAt": .string(ISO8601DateFormatter().string(from: Date())),
            "command": .array(CommandLine.arguments.dropFirst().map(JSONValue.string)),
            "settings": .object([
                "brokers": .array(settings.brokers.map { .string($0.description) }),
                "devices": .int(Int64(settings.devices)),
                "durationSec": .double(settings.durationSeconds),
                "warmupSec": .double(settings.warmupSeconds),
                "setupConcurrency": .int(Int64(settings.setupConcurrency)),
                "deviceOffset": .int(Int64(settings.deviceOffset)),
            ]),
            "report": report.json,
            "series": .array(report.series.map(\.json)),
            "latencyHistogramUs": encoded,
        ])
    }
}
