import ArgumentParser
import LifeSignalLoad

/// `lsclient load idle`: devices online doing nothing but keepalives; the broker's memory per device.
struct IdleLoadCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "idle",
        abstract: "N devices online and idle (keepalives only); reports the broker's RSS per online device.",
        discussion: """
            With --broker-pid, the broker's VmRSS is read before the first device connects and again \
            once all are online and the warm-up is over (give it a few seconds to settle); the \
            report shows both, the growth and the growth per device, and the growth of its \
            anonymous memory (RssAnon: heap, not the code and files the set-up faulted in once) \
            per device in bytes. Without it the report says \
            they were not measured. One process may hold at most about 20,000 sockets (the open-file limit): \
            for more devices run several processes against the same broker, each with its own \
            --device-offset and a --duration long enough to overlap; each reports the broker's RSS \
            when its devices were online and at its end.
            """)

    @OptionGroup var globals: GlobalOptions
    @OptionGroup var load: LoadOptions

    @Option(
        name: .customLong("keepalive-interval"),
        help: "Seconds between one device's keepalives (default: the heartbeat the broker announced).")
    var keepaliveInterval: Double?

    func validate() throws {
        if let keepaliveInterval, keepaliveInterval < 0.001 {
            throw ValidationError("--keepalive-interval must be at least 0.001")
        }
    }

    func run() throws {
        let intervalMs = keepaliveInterval.map { Int64(($0 * 1_000).rounded()) }
        try LoadRunner.run(globals: globals, load: load, scenario: IdleScenario(keepaliveIntervalMs: intervalMs))
    }
}
