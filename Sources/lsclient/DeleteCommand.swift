import ArgumentParser
import LifeSignalClient
import LifeSignalProtocol

struct DeleteCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "delete", abstract: "Delete a notification (notifications.delete).")

    @OptionGroup var globals: GlobalOptions

    @Argument(help: "The notification id (shown by lsclient notifications).")
    var id: String

    func run() async throws {
        try await OneShot.run(globals) { client, hello in
            // Looked up first: once deleted, the state no longer has it.
            let known = await client.state?.notifications.first { $0.id == id }
            try await client.deleteNotification(id: id)
            let clock = RelativeTime(serverTime: hello.serverTime)
            let text = known.map { "deleted: " + Readable.notificationBody($0, clock: clock) }
                ?? "deleted: notification \(id)"
            return CommandResult(fields: [:], text: text)
        }
    }
}
