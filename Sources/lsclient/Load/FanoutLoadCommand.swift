import ArgumentParser
import LifeSignalLoad

/// `lsclient load fanout`: alerts from dependents to all their responders, open loop, end to end.
struct FanoutLoadCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "fanout",
        abstract: "D dependents with R responders each raise and cancel alerts at a constant total rate "
            + "(open loop); reports notifications delivered/s and latency to each responder.",
        discussion: """
            Uses D × (R + 1) devices, one user each: before the clock starts every responder adds its \
            dependent (contacts.add with the dependent's QR code, isDependent). Each dependent then \
            alternates alert.trigger and alert.cancel, each a notification to all R responders. \
            sent counts the notifications expected (R per operation), delivered those that reached a \
            responder device; latency is from the operation's intended send time to each \
            notification.added (the correction for coordinated omission).
            """)

    @OptionGroup var globals: GlobalOptions
    @OptionGroup var window: LoadWindowOptions

    @Option(help: "Dependents (each a device that raises alerts).")
    var dependents = 100

    @Option(help: "Responders per dependent (each a device of its own).")
    var responders = 10

    @Option(help: "alert.trigger and alert.cancel requests per second in total, round-robin over the dependents.")
    var rate = 100

    func validate() throws {
        guard dependents >= 1 else { throw ValidationError("--dependents must be at least 1") }
        guard responders >= 1 else { throw ValidationError("--responders must be at least 1") }
        guard rate >= 1 else { throw ValidationError("--rate must be at least 1") }
    }

    func run() throws {
        try LoadRunner.run(
            globals: globals, window: window,
            devices: FanoutScenario.devices(dependents: dependents, responders: responders),
            scenario: FanoutScenario(dependents: dependents, responders: responders, rate: rate))
    }
}
