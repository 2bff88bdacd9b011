import Histogram
import LifeSignalProtocol

/// What `lsclient load flood` saw: how many connections it opened, how many the broker closed
/// and when, and how many were still open at the end. A Markdown table, or one JSON document,
/// in the conventions of `LoadReport`.
package struct FloodReport {
    package var brokerAddress: String
    package var connections: Int
    package var connected: Int
    /// Failed connects by libuv error name ("ECONNREFUSED").
    package var connectFailures: [String: UInt64]
    /// Connects still pending when the hold ended.
    package var stillConnecting: Int
    /// From the first connect until every connect had succeeded or failed; nil if some never did.
    package var connectSeconds: Double?
    package var heldSeconds: Double
    package var closedByBroker: Int
    /// From each connect to the broker's close, ms.
    package var closedAfterMs: Histogram<UInt64>?
    /// Error frames the broker sent (`unauthenticated` at the hello timeout), by code.
    package var brokerErrors: [String: UInt64]
    package var openAtEnd: Int
    package var loadGeneratorCPU: CPUTime
    package var broker: LoadReport.Broker?
    package var brokerResidentBeforeKiB: Int?
    package var brokerResidentConnectedKiB: Int?

    private static func sorted(_ counts: [String: UInt64]) -> [(key: String, value: UInt64)] {
        counts.sorted { $0.key < $1.key }
    }

    private static func countsText(_ counts: [String: UInt64]) -> String {
        counts.isEmpty ? "none" : sorted(counts).map { "\($0.key) \(NumberFormat.grouped($0.value))" }
            .joined(separator: ", ")
    }

    private static func mebibytes(_ kib: Int) -> String { NumberFormat.fixed(Double(kib) / 1024, 1) + " MiB" }

    // MARK: - Table

    package var tableLines: [String] {
        var rows: [(String, String)] = [
            ("scenario", "flood"),
            ("broker", brokerAddress),
            ("connections (asked)", NumberFormat.grouped(connections)),
            ("connected", NumberFormat.grouped(connected)),
            ("failed to connect", Self.countsText(connectFailures)),
            ("still connecting at the end", NumberFormat.grouped(stillConnecting)),
            ("all connects done after", connectSeconds.map { NumberFormat.fixed($0, 2) + " s" } ?? "never"),
            ("held (from the first connect)", NumberFormat.fixed(heldSeconds, 2) + " s"),
            ("closed by the broker", NumberFormat.grouped(closedByBroker)),
        ]
        if let closedAfterMs {
            rows += [
                ("closed by the broker after (min)", "\(NumberFormat.grouped(closedAfterMs.min)) ms"),
                ("closed by the broker after (p50)", "\(NumberFormat.grouped(closedAfterMs.valueAtPercentile(50))) ms"),
                ("closed by the broker after (max)", "\(NumberFormat.grouped(closedAfterMs.max)) ms"),
            ]
        }
        rows += [
            ("errors the broker sent", Self.countsText(brokerErrors)),
            ("open at the end", NumberFormat.grouped(openAtEnd)),
            ("lsclient CPU (whole run)", loadGeneratorCPU.reportText(over: heldSeconds)),
        ]
        if let broker {
            if let cpu = broker.cpu { rows.append(("lsbroker CPU (whole run)", cpu.reportText(over: heldSeconds))) }
            if let kib = brokerResidentBeforeKiB { rows.append(("lsbroker RSS before", Self.mebibytes(kib))) }
            if let kib = brokerResidentConnectedKiB {
                rows.append(("lsbroker RSS when all connects were done", Self.mebibytes(kib)))
            }
            if let kib = broker.residentKiB { rows.append(("lsbroker RSS at the end", Self.mebibytes(kib))) }
        }
        return ["| metric | value |", "|---|---|"] + rows.map { "| \($0.0) | \($0.1) |" }
    }

    // MARK: - JSON

    package var json: JSONValue {
        var object: JSONObject = [
            "scenario": .string("flood"),
            "broker": .string(brokerAddress),
            "connections": .int(Int64(connections)),
            "connected": .int(Int64(connected)),
            "connectFailed": .int(Int64(connectFailures.values.reduce(0, +))),
            // Failed connects by reason: the flood's own errors.
            "errors": .object(JSONObject(Self.sorted(connectFailures).map { ($0.key, .int(Int64($0.value))) })),
            "stillConnecting": .int(Int64(stillConnecting)),
            "connectSec": connectSeconds.map { .double(NumberFormat.rounded($0, 3)) } ?? .null,
            "durationSec": .double(NumberFormat.rounded(heldSeconds, 3)),
            "closedByBroker": .int(Int64(closedByBroker)),
            "brokerErrors": .object(JSONObject(Self.sorted(brokerErrors).map { ($0.key, .int(Int64($0.value))) })),
            "openAtEnd": .int(Int64(openAtEnd)),
            "loadGenerator": .object(loadGeneratorCPU.reportJSON()),
        ]
        if let closedAfterMs {
            object["closedAfterMs"] = .object([
                "min": .int(Int64(closedAfterMs.min)), "p50": .int(Int64(closedAfterMs.valueAtPercentile(50))),
                "p90": .int(Int64(closedAfterMs.valueAtPercentile(90))), "max": .int(Int64(closedAfterMs.max)),
            ])
        } else {
            object["closedAfterMs"] = .null
        }
        if let broker {
            var fields: JSONObject = ["pid": .int(Int64(broker.pid))]
            if let cpu = broker.cpu {
                for (key, value) in cpu.reportJSON() { fields[key] = value }
            }
            fields["rssBeforeKiB"] = brokerResidentBeforeKiB.map { .int(Int64($0)) } ?? .null
            fields["rssConnectedKiB"] = brokerResidentConnectedKiB.map { .int(Int64($0)) } ?? .null
            fields["rssKiB"] = broker.residentKiB.map { .int(Int64($0)) } ?? .null
            object["broker"] = .object(fields)
        }
        return .object(object)
    }
}
