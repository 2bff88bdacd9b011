import ArgumentParser
import LifeSignalLoad

/// `lsclient load failover`: a cluster's first broker is killed under its devices.
struct FailoverLoadCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "failover",
        abstract: "Kill a cluster's first broker under its devices; they move to the next broker and resume. "
            + "Reports how long until all resumed and caught up, and any event missed or repeated.",
        discussion: """
            --broker lists the cluster's brokers; device k connects to the (k mod n)-th. Before the \
            clock starts, devices 2p and 2p+1 become contacts. When it starts, the process --kill-pid \
            (default: --broker-pid; the first broker's) names gets SIGKILL; each device that was on it moves to the second \
            broker and says hello with resume, while its partner (on another broker) makes --updates \
            profile.update requests. The window ends when every moved device has seen all of them. \
            Latency is kill → hello ok on the next broker. Missed or repeated events, or a moved \
            device that did not catch up, make lsclient exit 1. There is no warm-up.
            """)

    @OptionGroup var globals: GlobalOptions
    @OptionGroup var load: LoadOptions

    @Option(help: "The pid of the first broker of --broker, killed when the clock starts (default: --broker-pid).")
    var killPid: Int32?

    @Option(help: "profile.update requests by the partner of each moved device.")
    var updates = 5

    func validate() throws {
        guard load.devices >= 2, load.devices % 2 == 0 else {
            throw ValidationError("--devices must be even (the devices are paired), at least 2")
        }
        guard updates >= 1 else { throw ValidationError("--updates must be at least 1") }
        guard killPid ?? load.window.brokerPID != nil else {
            throw ValidationError("--kill-pid (or --broker-pid) must name the first broker's process")
        }
    }

    func run() throws {
        try LoadRunner.run(globals: globals, load: load,
                           scenario: FailoverScenario(devices: load.devices, updates: updates,
                                                     killPID: killPid ?? load.window.brokerPID!))
    }
}
