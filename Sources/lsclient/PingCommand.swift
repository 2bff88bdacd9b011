import ArgumentParser
import LifeSignalClient
import LifeSignalProtocol

struct PingCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "ping",
        abstract: "Ping a dependent, answer a ping, or withdraw yours.",
        discussion: """
            CONTACT is a contact's user id or their name (any case). A contact named "respond" or \
            "clear" is reached by id.
            """,
        subcommands: [Send.self, Respond.self, Clear.self],
        defaultSubcommand: Send.self)

    struct Send: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "send", abstract: "Ping a dependent: ask them to show they are fine (ping.send).")

        @OptionGroup var globals: GlobalOptions

        @Argument(help: "The dependent's user id or name.")
        var contact: String

        func run() async throws {
            try await OneShot.run(globals) { client, _ in
                let target = try ContactResolver.resolve(contact, in: await client.state)
                let pingID = try await client.sendPing(to: target.id)
                return CommandResult(fields: ["pingId": .string(pingID)], text: "pinged \(target.name)")
            }
        }
    }

    struct Respond: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "respond", abstract: "Answer a contact's pending ping (ping.respond).")

        @OptionGroup var globals: GlobalOptions

        @Argument(help: "The pinger's user id or name.")
        var contact: String

        func run() async throws {
            try await OneShot.run(globals) { client, _ in
                let target = try ContactResolver.resolve(contact, in: await client.state)
                try await client.respondToPing(from: target.id)
                return CommandResult(fields: [:], text: "answered \(target.name)'s ping")
            }
        }
    }

    struct Clear: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "clear", abstract: "Withdraw your pending ping to a contact (ping.clear).")

        @OptionGroup var globals: GlobalOptions

        @Argument(help: "The pinged contact's user id or name.")
        var contact: String

        func run() async throws {
            try await OneShot.run(globals) { client, _ in
                let target = try ContactResolver.resolve(contact, in: await client.state)
                try await client.clearPing(to: target.id)
                return CommandResult(fields: [:], text: "withdrew your ping to \(target.name)")
            }
        }
    }
}
