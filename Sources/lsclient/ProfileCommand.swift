import ArgumentParser

struct ProfileCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "profile", abstract: "Change the user's profile.", subcommands: [ProfileUpdateCommand.self])
}
