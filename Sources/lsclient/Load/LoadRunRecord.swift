import Foundation
import Histogram
import LifeSignalProtocol

/// A run read back from a file `load … --out` wrote (`LoadRunFile`), for `load plot` and `load compare`.
struct LoadRunRecord {
    /// What the run is called in a plot's legend and a comparison's header: the file's name.
    let name: String
    let report: JSONObject
    let series: [JSONObject]
    let histogramUs: Histogram<UInt64>

    init(path: String) throws(CLIError) {
        name = URL(fileURLWithPath: path).deletingPathExtension().lastPathComponent
        guard FileManager.default.fileExists(atPath: path) else {
            throw CLIError.local("cannot read the load run \(path): no such file")
        }
        let document: JSONObject
        let bytes: Data
        do {
            bytes = try Data(contentsOf: URL(fileURLWithPath: path))
            guard let object = try JSONValue.parse(Array(bytes)).objectValue else { throw CLIError.local("not a JSON object") }
            document = object
        } catch {
            throw CLIError.local("cannot read the load run \(path): \(error)")
        }
        guard document["format"]?.stringValue == LoadRunFile.format, let report = document["report"]?.objectValue else {
            throw CLIError.local("\(path) is not a load run written by lsclient load … --out (format \(LoadRunFile.format))")
        }
        self.report = report
        series = (document["series"]?.arrayValue ?? []).compactMap(\.objectValue)
        do {
            // Decoded from the file itself: its UInt64 fields do not survive a JSONValue (LoadRunFile).
            histogramUs = try JSONDecoder().decode(HistogramField.self, from: bytes).latencyHistogramUs
        } catch {
            throw CLIError.local("\(path) holds no readable latency histogram: \(error)")
        }
    }

    /// A number of the report at `path` ("latencyUs", "p99"), if the run has it.
    func figure(_ path: [String]) -> Double? {
        var value: JSONValue? = .object(report)
        for key in path { value = value?.objectValue?[key] }
        return value?.doubleValue
    }
}

private struct HistogramField: Decodable {
    let latencyHistogramUs: Histogram<UInt64>
}
