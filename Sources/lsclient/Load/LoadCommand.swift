import ArgumentParser
import LifeSignalLoad

/// `lsclient load <scenario>`: one process simulating many devices on one libuv loop.
struct LoadCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "load",
        abstract: "Generate load: many simulated devices on one event loop.",
        discussion: """
            Each device is one connection with its own registered user, set up through the protocol \
            (register, hello, snapshot) before the clock starts. The file-descriptor limit is raised \
            to its hard limit, and with the broker on loopback the connections come from \
            127.0.0.1–127.0.0.255. A progress line goes to stderr once a second; the results go to \
            stdout as a table, or as one JSON document with --json. Set-up failures exit 1. \
            --profile and --device are not used: every simulated device registers its own user. \
            --broker with several brokers (a cluster's) spreads the devices over them, device k on \
            the (k mod n)-th, so the two devices of a pair are on different brokers.

            Scenarios: keepalive (closed-loop round trips), pings (open-loop ping → notification), \
            idle (online devices at rest: the broker's RSS per device), storm (everyone reconnects \
            at once with resume; catch-ups checked), fanout (alerts to many responders, open loop), \
            flood (connections that never say hello; registers nothing), failover (a cluster's \
            first broker killed under its devices, which resume on the next). One process holds at most \
            about 20,000 sockets (the open-file limit): for more, run several, each with its own \
            --device-offset.
            """,
        subcommands: [
            KeepaliveLoadCommand.self, PingsLoadCommand.self, IdleLoadCommand.self, StormLoadCommand.self,
            FanoutLoadCommand.self, FloodLoadCommand.self, HostileLoadCommand.self, FailoverLoadCommand.self,
            PlotLoadCommand.self, CompareLoadCommand.self,
        ]
    )
}
