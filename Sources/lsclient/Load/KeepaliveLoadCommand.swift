import ArgumentParser
import LifeSignalLoad

/// `lsclient load keepalive`: the closed-loop keepalive scenario.
struct KeepaliveLoadCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "keepalive",
        abstract: "Each device keeps K keepalives in flight; reports responses/s and round-trip latency.")

    @OptionGroup var globals: GlobalOptions
    @OptionGroup var load: LoadOptions

    @Option(name: .customLong("in-flight"), help: "Keepalives pipelined per connection.")
    var inFlight = 16

    func validate() throws {
        guard inFlight >= 1 else { throw ValidationError("--in-flight must be at least 1") }
    }

    func run() throws {
        try LoadRunner.run(globals: globals, load: load, scenario: KeepaliveScenario(inFlight: inFlight))
    }
}
