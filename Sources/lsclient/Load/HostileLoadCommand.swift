import ArgumentParser
import LifeSignalLoad

/// `lsclient load hostile`: victims checking in while hostile contacts attack at full rate.
struct HostileLoadCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "hostile",
        abstract: "V victims check in at a constant total rate (open loop) while H hostile users, each a "
            + "responder of every victim, attack as fast as the broker answers; reports the victims' "
            + "checkin → ok latency and fails if a victim is cut or refused.",
        discussion: """
            Uses V + H devices, one user each: before the clock starts every hostile user adds every \
            victim (contacts.add, isDependent). Each hostile device then keeps --in-flight requests \
            pipelined, round-robin: a rename to the largest name allowed (a contact.updated to every \
            victim), a role toggle, a ping and its withdrawal. The broker's request rate limit applies \
            to them as to anyone (bench/hostile.sh keeps it on): what it refuses is counted among the \
            errors as rate_limited. Latency is from each check-in's intended send time.
            """)

    @OptionGroup var globals: GlobalOptions
    @OptionGroup var window: LoadWindowOptions

    @Option(help: "Victims (each a device that checks in).")
    var victims = 100

    @Option(help: "Hostile users (each a device of its own, a contact of every victim); 0 for a baseline.")
    var hostiles = 1

    @Option(help: "Victim check-ins per second in total, round-robin over the victims.")
    var rate = 200

    @Option(name: .customLong("in-flight"), help: "Attack requests pipelined per hostile device.")
    var inFlight = 16

    func validate() throws {
        guard victims >= 1 else { throw ValidationError("--victims must be at least 1") }
        guard hostiles >= 0 else { throw ValidationError("--hostiles must be 0 (a baseline) or more") }
        guard rate >= 1 else { throw ValidationError("--rate must be at least 1") }
        guard inFlight >= 1 else { throw ValidationError("--in-flight must be at least 1") }
    }

    func run() throws {
        try LoadRunner.run(
            globals: globals, window: window, devices: HostileScenario.devices(victims: victims, hostiles: hostiles),
            scenario: HostileScenario(
            victims: victims, hostiles: hostiles, rate: rate, inFlight: inFlight))
    }
}
