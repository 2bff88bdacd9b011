import ArgumentParser
import Foundation

/// `lsbroker stats`: a readable summary of a running broker's metrics, read from its operations
/// endpoint (`serve --metrics-port`). Works alike for a broker on either store.
struct Stats: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Summarize a running broker's metrics (its --metrics-port endpoint).",
        discussion: """
            Reads GET /metrics of the broker at --metrics-url and prints connections, users, requests by \
            op with their latency (p50/p99 from the histograms), the store's commits, what was written, \
            pushes, deadlines and refusals. --raw prints the Prometheus text as it came. A broker that \
            does not answer: an error, exit status 1.
            """)

    @Option(help: .setting(
        "The broker's operations endpoint.", env: "METRICS_URL", default: "http://127.0.0.1:<LSBROKER_METRICS_PORT>"))
    var metricsURL: String?
    @Flag(help: "Print the Prometheus text itself.")
    var raw = false

    func run() throws {
        let environment = Environment(ProcessInfo.processInfo.environment)
        let url: String
        if let given = try environment.resolve(metricsURL, "METRICS_URL") {
            url = given
        } else if let port: Int = try environment.resolve(nil, "METRICS_PORT") {
            url = "http://127.0.0.1:\(port)"
        } else {
            throw ValidationError("--metrics-url is required (or LSBROKER_METRICS_URL, or LSBROKER_METRICS_PORT)")
        }
        let text: String
        do {
            text = try OperationsEndpoint(url).get("/metrics")
        } catch {
            throw CommandFailure(code: "unreachable", message: "\(error)")
        }
        if raw { return print(text, terminator: "") }
        for line in StatsSummary(samples: PrometheusSamples(parsing: text)).lines { print(line) }
    }
}
