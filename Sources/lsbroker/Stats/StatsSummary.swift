import Foundation
import LifeSignalBroker

/// `lsbroker stats`'s text: the metrics of a running broker, a few lines an operator reads at a glance.
struct StatsSummary {
    let samples: PrometheusSamples

    var lines: [String] {
        var lines: [String] = []
        func count(_ name: String, _ labels: [String: String] = [:]) -> Int { Int(samples.total(name, labels)) }

        let phases = ["active", "awaiting_hello", "authenticating", "closing"]
        lines.append("connections    " + phases.map { "\($0.replacingOccurrences(of: "_", with: " ")) \(count(MetricName.connections, ["phase": $0]))" }
            .joined(separator: " · ") + " · accepted \(count(MetricName.connectionsAccepted)) in all")
        lines.append("users          loaded \(count(MetricName.usersLoaded)) · devices online \(count(MetricName.devicesOnline))")

        let requests = samples.matching(MetricName.requests)
        let errors = requests.filter { $0.labels["result"] != "ok" }
        var byCode: [String: Int] = [:]
        for sample in errors { byCode[sample.labels["result"] ?? "?", default: 0] += Int(sample.value) }
        let errorText = byCode.isEmpty ? "none"
            : byCode.sorted { $0.value > $1.value }.map { "\($0.key) \($0.value)" }.joined(separator: ", ")
        lines.append("requests       \(count(MetricName.requests)) · errors: \(errorText)")
        var byOp: [String: Int] = [:]
        for sample in requests { byOp[sample.labels["op"] ?? "?", default: 0] += Int(sample.value) }
        for (op, total) in byOp.sorted(by: { $0.value > $1.value }).prefix(8) {
            lines.append("  " + op.padding(toLength: 21, withPad: " ", startingAt: 0) + "\(total)"
                         + latency(MetricName.requestDuration, ["op": op]))
        }

        let commits = count(MetricName.commitBatchSize + "_count")
        let writes = samples.total(MetricName.commitBatchSize + "_sum")
        let average = commits == 0 ? "-" : String(format: "%.1f", writes / Double(commits))
        lines.append("store          backlog \(count(MetricName.storeBacklog)) · commits \(commits), \(average) writes each"
                     + latency(MetricName.commitDuration) + " · failed \(count(MetricName.commitFailures))")
        lines.append("written        events \(count(MetricName.eventsWritten)) · notifications \(count(MetricName.notificationsWritten))")
        lines.append("pushes         " + listed(MetricName.pushes, by: "result") + " · backlog \(count(MetricName.pushBacklog))")
        lines.append("deadlines      pending \(count(MetricName.deadlinesPending)) · fired \(count(MetricName.deadlinesFired))"
                     + " · store retries pending \(count(MetricName.storeRetriesPending))")
        lines.append("refusals       " + listed(MetricName.refusals, by: "reason"))
        lines.append("cut            " + listed(MetricName.connectionsCut, by: "reason"))
        if !samples.matching(MetricName.postgresPoolSize).isEmpty {
            lines.append("postgresql     leases \(count(MetricName.postgresLeasesInUse)) of \(count(MetricName.postgresPoolSize))"
                         + latency(MetricName.postgresLeaseWait) + " · timeouts \(count(MetricName.postgresLeaseTimeouts))"
                         + " · hints received \(count(MetricName.notifiesReceived))")
        }
        return lines
    }

    /// `key value, …` of the series of `name` by `label`, largest first, without zeros; `none` if all are.
    private func listed(_ name: String, by label: String) -> String {
        let nonZero = samples.matching(name).filter { $0.value > 0 }.sorted { $0.value > $1.value }
        guard !nonZero.isEmpty else { return "none" }
        return nonZero.map { "\($0.labels[label] ?? "?") \(Int($0.value))" }.joined(separator: ", ")
    }

    private func latency(_ name: String, _ labels: [String: String] = [:]) -> String {
        guard let p50 = samples.quantile(0.5, of: name, labels), let p99 = samples.quantile(0.99, of: name, labels)
        else { return "" }
        return " · p50 \(Self.duration(p50)) · p99 \(Self.duration(p99))"
    }

    static func duration(_ seconds: Double) -> String {
        seconds < 0.001 ? String(format: "%.0f µs", seconds * 1e6)
            : seconds < 1 ? String(format: "%.1f ms", seconds * 1e3) : String(format: "%.2f s", seconds)
    }
}
