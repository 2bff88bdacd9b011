import ArgumentParser
import LifeSignalLoad

/// `lsclient load pings`: the open-loop ping scenario (responder → dependent, end to end).
struct PingsLoadCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "pings",
        abstract: "P responder→dependent pairs; pings at a constant total rate (open loop); reports "
            + "delivered/s and ping.send → notification.added latency.",
        discussion: """
            Uses 2 × P devices: each pair registers two users, the responder adds the dependent \
            (contacts.add with the dependent's QR code, isDependent) before the clock starts. Latency \
            is measured from each ping's intended send time, so a broker that falls behind is not \
            hidden by a generator that waits for it (coordinated omission).
            """)

    @OptionGroup var globals: GlobalOptions
    @OptionGroup var window: LoadWindowOptions

    @Option(help: "Responder→dependent pairs (two devices each).")
    var pairs = 100

    @Option(help: "Pings per second in total, round-robin over the pairs.")
    var rate = 1_000

    func validate() throws {
        guard pairs >= 1 else { throw ValidationError("--pairs must be at least 1") }
        guard rate >= 1 else { throw ValidationError("--rate must be at least 1") }
    }

    func run() throws {
        try LoadRunner.run(globals: globals, window: window, devices: 2 * pairs,
                           scenario: PingsScenario(pairs: pairs, rate: rate))
    }
}
