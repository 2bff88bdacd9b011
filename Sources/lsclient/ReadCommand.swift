import ArgumentParser
import LifeSignalClient
import LifeSignalProtocol

struct ReadCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "read", abstract: "Mark a notification read (notifications.read).")

    @OptionGroup var globals: GlobalOptions

    @Argument(help: "The notification id (shown by lsclient notifications).")
    var id: String

    func run() async throws {
        try await OneShot.run(globals) { client, hello in
            try await client.markNotificationRead(id: id)
            // The state holds only the newest notifications; an older one is named by its id.
            let known = await client.state?.notifications.first { $0.id == id }
            let clock = RelativeTime(serverTime: hello.serverTime)
            let text = known.map { "marked read: " + Readable.notificationBody($0, clock: clock) }
                ?? "marked read: notification \(id)"
            return CommandResult(fields: [:], text: text)
        }
    }
}
