import ArgumentParser
import LifeSignalLoad
import LifeSignalProtocol

/// `lsclient load flood`: connections that never say hello, held open; what the broker does with them.
struct FloodLoadCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "flood",
        abstract: "C connections that connect and never send anything (no register, no hello), held for "
            + "--duration; reports how many connected, how many the broker closed and when, and how many "
            + "are still open.",
        discussion: """
            The connections come from 127.0.0.1–127.0.0.255 (with the broker on loopback), at most \
            --concurrency connecting at once; --duration counts from the first connect. A broker \
            closes each one --hello-timeout-ms after it connected (PROTOCOL §3), sending \
            unauthenticated first. Failed connects are counted by reason, not fatal. One process may \
            hold at most about 20,000 sockets (the open-file limit): run several for more. --json prints one \
            JSON document. Ctrl-C ends the hold early, with a report.
            """)

    @OptionGroup var globals: GlobalOptions

    @Option(help: "Connections to open.")
    var connections = 1_000

    @Option(help: "Seconds to hold them, from the first connect.")
    var duration = 10.0

    @Option(help: "Connects in progress at once.")
    var concurrency = 256

    @Option(
        name: .customLong("broker-pid"), help: "Also report this broker process's CPU seconds and RSS (Linux /proc).")
    var brokerPID: Int32?

    @OptionGroup var output: LoadOutputOption

    func validate() throws {
        guard connections >= 1 else { throw ValidationError("--connections must be at least 1") }
        guard duration > 0 else { throw ValidationError("--duration must be positive") }
        guard concurrency >= 1 else { throw ValidationError("--concurrency must be at least 1") }
    }

    func run() throws {
        let report = try LoadRunner.orExit {
            let settings = FloodRun.Settings(
                broker: try globals.brokerAddress(profile: nil), connections: connections, durationSeconds: duration,
                concurrency: concurrency, brokerPID: brokerPID)
            return try FloodRun(settings: settings).execute()
        }
        if let out = output.out {
            let settings: [String: JSONValue] = [
                "brokers": .array([.string(try globals.brokerAddress(profile: nil).description)]),
                "connections": .int(Int64(connections)), "durationSec": .double(duration),
                "concurrency": .int(Int64(concurrency)),
            ]
            try LoadRunner.orExit { try LoadRunFile(flood: report.json, settings: settings).write(to: out) }
        }
        LoadRunner.print(json: report.json, table: report.tableLines, globals: globals)
    }
}
