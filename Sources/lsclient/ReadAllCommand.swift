import ArgumentParser
import LifeSignalClient
import LifeSignalProtocol

struct ReadAllCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "read-all", abstract: "Mark every notification read (notifications.readAll).")

    @OptionGroup var globals: GlobalOptions

    func run() async throws {
        try await OneShot.run(globals) { client, _ in
            let count = try await client.markAllNotificationsRead()
            let text = count == 0
                ? "nothing to mark: no unread notifications"
                : "marked \(Readable.count(Int(count), "notification")) read"
            return CommandResult(fields: ["count": .int(count)], text: text)
        }
    }
}
