import ArgumentParser
import LifeSignalClient
import LifeSignalProtocol

struct AccountCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "account", abstract: "The account itself.", subcommands: [Delete.self])

    struct Delete: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "delete",
            abstract: "Delete the account and everything of it; every contact is told (account.delete).",
            discussion: """
                Every device of the user is disconnected, and the account's token and QR code stop \
                working at once. The profile and its devices' saved states are removed from this machine.
                """)

        @OptionGroup var globals: GlobalOptions

        @Option(help: "The account's current name, to confirm.")
        var confirm: String

        func run() async throws {
            var deleted = false
            try await OneShot.run(globals) { client, hello in
                try await client.deleteAccount(confirm: confirm)
                deleted = true
                return CommandResult(fields: [:], text: "deleted the account of \(hello.user.name) (\(hello.user.id))")
            }
            // The profile's credential is gone with the account: nothing left to connect as.
            if deleted {
                let context = try CommandContext(globals)
                context.store.removeProfile(context.profileName)
            }
        }
    }
}
