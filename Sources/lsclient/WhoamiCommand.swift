import ArgumentParser
import LifeSignalClient

struct WhoamiCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "whoami", abstract: "Say hello and print the user.")

    @OptionGroup var globals: GlobalOptions

    func run() async throws {
        try await OneShot.run(globals) { client, hello in
            let user = await client.state?.user ?? hello.user
            let text = Readable.user(user, clock: RelativeTime(serverTime: hello.serverTime))
            return CommandResult(fields: hello.json.objectValue ?? [:], text: text)
        }
    }
}
