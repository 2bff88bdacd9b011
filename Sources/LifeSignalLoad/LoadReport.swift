import Histogram
import LifeSignalProtocol

/// The results of one run: a Markdown table for people (it pastes into docs/BENCHMARKS.md as is)
/// or one JSON document with the same figures.
package struct LoadReport {
    /// A scenario setting, e.g. ("inFlight", "in flight per device", 16).
    package struct Parameter {
        let key: String
        let label: String
        let value: Int
    }

    package struct Latency {
        let p50: UInt64
        let p90: UInt64
        let p99: UInt64
        let p999: UInt64
        let max: UInt64
        let mean: Double

        init(_ histogram: Histogram<UInt64>) {
            p50 = histogram.valueAtPercentile(50)
            p90 = histogram.valueAtPercentile(90)
            p99 = histogram.valueAtPercentile(99)
            p999 = histogram.valueAtPercentile(99.9)
            max = histogram.max
            mean = histogram.mean
        }
    }

    /// End-to-end scenarios (pings): requests whose effect is awaited on another device. The
    /// latency is then from each request's intended send time to its effect's arrival.
    package struct Deliveries {
        let sent: UInt64
        let delivered: UInt64
        /// Sent (in the window or the warm-up) and not seen by the end of the window.
        let outstandingAtEnd: UInt64
    }

    /// The broker's side, when `--broker-pid` was given and /proc could be read.
    package struct Broker {
        let pid: Int32
        let cpu: CPUTime?
        let residentKiB: Int?
        /// Written to storage in the window (/proc/PID/io), if it could be read.
        var storageWrittenBytes: UInt64? = nil
    }

    package var scenario: String
    package var brokerAddress: String
    package var devices: Int
    package var parameters: [Parameter]
    package var setupSeconds: Double
    package var warmupSeconds: Double
    package var measuredSeconds: Double
    package var responses: UInt64
    package var latency: Latency?
    package var errors: [String: UInt64]
    package var disconnects: UInt64
    package var loadGeneratorCPU: CPUTime
    package var broker: Broker?
    package var deliveries: Deliveries? = nil
    /// What the latency rows measure, when not the default wording (storm: the reconnect's hello).
    package var latencyLabel: String? = nil
    /// The scenario's own results (`LoadScenario.results`), after the common ones.
    package var figures: [Figure] = []
    /// Why the scenario's own checks failed (`LoadScenario.verificationFailure`): lsclient prints
    /// the report, then this, and exits 1.
    package var verificationFailure: String? = nil
    /// The window second by second (`--out`).
    package var series: [LoadSecond] = []
    /// Every latency of the window (`--out`: the run file and its `.hgrm`).
    package var histogramUs: Histogram<UInt64>? = nil

    /// When most requests were refused by a limit of the broker rather than answered: which, and
    /// how to raise it (a run of the defaults measures the rate limiter, not the broker).
    package var refusalHint: String? {
        let limits: [(code: String, advice: String)] = [
            ("rate_limited", "each connection may send --request-rate requests per second (200 by default); "
                + "start the broker with --request-rate 0 to measure it unthrottled"),
            ("overloaded", "the broker's store backlog was full (--max-pending-writes); the store is the bottleneck "
                + "at this load"),
        ]
        for limit in limits {
            let refused = errors[limit.code] ?? 0
            if refused > responses {
                return "most requests were refused \(limit.code) (\(NumberFormat.grouped(refused)) against "
                    + "\(NumberFormat.grouped(responses)) answered): \(limit.advice)"
            }
        }
        return nil
    }

    /// By code, so output is stable from run to run.
    private var sortedErrors: [(key: String, value: UInt64)] { errors.sorted { $0.key < $1.key } }

    package var responsesPerSecond: Double { measuredSeconds > 0 ? Double(responses) / measuredSeconds : 0 }

    package var deliveredPerSecond: Double {
        guard let deliveries, measuredSeconds > 0 else { return 0 }
        return Double(deliveries.delivered) / measuredSeconds
    }

    /// CPU µs per response, the comparable cost figure across runs.
    private func microsecondsPerResponse(_ cpu: CPUTime) -> Double? {
        responses > 0 ? cpu.total * 1_000_000 / Double(responses) : nil
    }

    // MARK: - Table

    package var tableLines: [String] {
        var rows: [(String, String)] = [
            ("scenario", scenario),
            ("broker", brokerAddress),
            ("devices", NumberFormat.grouped(devices)),
        ]
        rows += parameters.map { ($0.label, NumberFormat.grouped($0.value)) }
        rows += [
            ("set-up (register + hello, all devices)", NumberFormat.fixed(setupSeconds, 2) + " s"),
            ("warm-up (not counted)", NumberFormat.fixed(warmupSeconds, 1) + " s"),
            ("measured", NumberFormat.fixed(measuredSeconds, 2) + " s"),
            ("responses", NumberFormat.grouped(responses)),
            ("responses/s", NumberFormat.grouped(Int(responsesPerSecond.rounded()))),
        ]
        if let deliveries {
            rows += [
                ("sent (measured window)", NumberFormat.grouped(deliveries.sent)),
                ("delivered (measured window)", NumberFormat.grouped(deliveries.delivered)),
                ("delivered/s", NumberFormat.grouped(Int(deliveredPerSecond.rounded()))),
                ("sent, not delivered at the end", NumberFormat.grouped(deliveries.outstandingAtEnd)),
            ]
        }
        if let latency {
            let label = latencyLabel ?? (deliveries == nil ? "latency" : "end-to-end latency (from intended send)")
            rows += [
                ("\(label) p50", NumberFormat.latency(microseconds: latency.p50)),
                ("\(label) p90", NumberFormat.latency(microseconds: latency.p90)),
                ("\(label) p99", NumberFormat.latency(microseconds: latency.p99)),
                ("\(label) p99.9", NumberFormat.latency(microseconds: latency.p999)),
                ("\(label) max", NumberFormat.latency(microseconds: latency.max)),
            ]
        }
        rows += figures.map { ($0.label, $0.text) }
        let errorText = errors.isEmpty
            ? "none"
            : sortedErrors.map { "\($0.key) \(NumberFormat.grouped($0.value))" }.joined(separator: ", ")
        rows += [
            ("errors (from the end of set-up)", errorText),
            ("disconnects (from the end of set-up)", NumberFormat.grouped(disconnects)),
            ("lsclient CPU (measured window)", cpuText(loadGeneratorCPU)),
        ]
        if let broker {
            if let cpu = broker.cpu { rows.append(("lsbroker CPU (measured window)", cpuText(cpu))) }
            if let kib = broker.residentKiB {
                rows.append(("lsbroker RSS at the end", NumberFormat.fixed(Double(kib) / 1024, 1) + " MiB"))
            }
            if let written = broker.storageWrittenBytes {
                let perResponse = responses > 0 ? Double(written) / Double(responses) : 0
                rows.append(("lsbroker bytes written to storage (measured window)",
                             NumberFormat.fixed(Double(written) / 1_048_576, 1) + " MiB; "
                                 + NumberFormat.grouped(Int(perResponse.rounded())) + " B per response"))
            }
        }
        return ["| metric | value |", "|---|---|"] + rows.map { "| \($0.0) | \($0.1) |" }
    }

    private func cpuText(_ cpu: CPUTime) -> String {
        cpu.reportText(over: measuredSeconds, microsecondsPerResponse: microsecondsPerResponse(cpu))
    }

    // MARK: - JSON

    package var json: JSONValue {
        var object: JSONObject = [
            "scenario": .string(scenario),
            "broker": .string(brokerAddress),
            "devices": .int(Int64(devices)),
        ]
        for parameter in parameters { object[parameter.key] = .int(Int64(parameter.value)) }
        object["setupSec"] = .double(NumberFormat.rounded(setupSeconds, 3))
        object["warmupSec"] = .double(warmupSeconds)
        object["durationSec"] = .double(NumberFormat.rounded(measuredSeconds, 3))
        object["responses"] = .int(Int64(responses))
        object["responsesPerSec"] = .double(NumberFormat.rounded(responsesPerSecond, 1))
        if let deliveries {
            object["sent"] = .int(Int64(deliveries.sent))
            object["delivered"] = .int(Int64(deliveries.delivered))
            object["deliveredPerSec"] = .double(NumberFormat.rounded(deliveredPerSecond, 1))
            object["outstandingAtEnd"] = .int(Int64(deliveries.outstandingAtEnd))
        }
        if let latency {
            object["latencyUs"] = .object([
                "p50": .int(Int64(latency.p50)), "p90": .int(Int64(latency.p90)), "p99": .int(Int64(latency.p99)),
                "p99.9": .int(Int64(latency.p999)), "max": .int(Int64(latency.max)),
                "mean": .double(NumberFormat.rounded(latency.mean, 1)),
            ])
        } else {
            object["latencyUs"] = .null
        }
        for figure in figures { object[figure.key] = figure.json }
        object["errors"] = .object(JSONObject(sortedErrors.map { ($0.key, .int(Int64($0.value))) }))
        object["disconnects"] = .int(Int64(disconnects))
        object["loadGenerator"] = .object(cpuJSON(loadGeneratorCPU))
        if let broker {
            var fields: JSONObject = ["pid": .int(Int64(broker.pid))]
            if let cpu = broker.cpu {
                for (key, value) in cpuJSON(cpu) { fields[key] = value }
            }
            fields["rssKiB"] = broker.residentKiB.map { .int(Int64($0)) } ?? .null
            fields["storageWrittenBytes"] = broker.storageWrittenBytes.map { .int(Int64($0)) } ?? .null
            object["broker"] = .object(fields)
        }
        return .object(object)
    }

    private func cpuJSON(_ cpu: CPUTime) -> JSONObject {
        cpu.reportJSON(microsecondsPerResponse: microsecondsPerResponse(cpu))
    }
}
