import ArgumentParser
import LifeSignalLoad

/// `lsclient load storm`: every device drops and reconnects at once, resuming from its lastSeq.
struct StormLoadCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "storm",
        abstract: "N devices go offline, miss events, and reconnect at once with hello + resume; "
            + "reports hellos/s, hello latency and whether each catch-up was exact.",
        discussion: """
            Before the clock starts: devices 2p and 2p+1 become contacts (contacts.add), every device \
            drops its connection (no bye), and each user's second device ("load-N.other") makes \
            --updates profile.update requests, so each user misses --updates events of its own and as \
            many of its partner's. Then all devices reconnect, --concurrency at a time, each saying \
            hello with resume: its lastSeq. Latency is connect start → hello ok. Each catch-up must \
            be exactly the events lastSeq+1 … the user's seq (a snapshot instead when the resume \
            point is older than the broker's --event-retention). The window ends when the last \
            device has caught up; --duration bounds it. Missed or repeated events, or devices that \
            did not reconnect, are reported and make lsclient exit 1. There is no warm-up.
            """)

    @OptionGroup var globals: GlobalOptions
    @OptionGroup var load: LoadOptions

    @Option(help: "profile.update requests per user while its storm device is offline.")
    var updates = 5

    @Option(help: "Reconnects (connect, hello, catch-up) in progress at once.")
    var concurrency = 1_000

    func validate() throws {
        guard load.devices >= 2, load.devices % 2 == 0 else {
            throw ValidationError("--devices must be even (the devices are paired), at least 2")
        }
        guard updates >= 0 else { throw ValidationError("--updates must not be negative") }
        guard concurrency >= 1 else { throw ValidationError("--concurrency must be at least 1") }
    }

    func run() throws {
        try LoadRunner.run(
            globals: globals, load: load,
            scenario: StormScenario(devices: load.devices, updates: updates, concurrency: concurrency))
    }
}
