import ArgumentParser
import LifeSignalClient

struct StateCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "state", abstract: "Print the saved state of this (profile, device) without connecting.")

    @OptionGroup var globals: GlobalOptions

    func run() async throws {
        try await Failure.reporting {
            let context = try CommandContext(globals)
            guard let state = try context.store.loadState(profile: context.profileName, device: context.device) else {
                throw CLIError.local("no saved state for profile '\(context.profileName)', device \(context.device)")
            }
            if globals.json {
                Console.json(JSONLines.state(state))
            } else {
                // Offline: relative times go by this machine's clock.
                Console.out(Readable.state(state, clock: RelativeTime()))
            }
        }
    }
}
