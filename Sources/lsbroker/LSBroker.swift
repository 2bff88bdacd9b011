import ArgumentParser

@main
struct LSBroker: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "lsbroker",
        abstract: "The LifeSignal broker: routes check-ins, pings, alerts and contact changes between devices.",
        subcommands: [Serve.self, Pushes.self, BenchDeadlines.self, BenchStore.self],
        defaultSubcommand: Serve.self
    )
}
