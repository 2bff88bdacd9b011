import ArgumentParser
import LifeSignalClient
import LifeSignalProtocol

struct ContactsCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "contacts",
        abstract: "List contacts, add or remove one, or set a contact's roles.",
        discussion: """
            CONTACT is a contact's user id or their name (any case). Roles are as seen from this user: \
            --responder means the contact watches over you, --dependent means you watch over them.
            """,
        subcommands: [List.self, Add.self, Remove.self, Roles.self],
        defaultSubcommand: List.self)

    struct List: AsyncParsableCommand {
        static let configuration = CommandConfiguration(commandName: "list", abstract: "List contacts (contacts.list).")

        @OptionGroup var globals: GlobalOptions

        func run() async throws {
            try await OneShot.run(globals) { client, hello in
                let contacts = try await client.listContacts()
                let clock = RelativeTime(serverTime: hello.serverTime)
                let sorted = contacts.sorted { ($0.name, $0.id) < ($1.name, $1.id) }
                let text = sorted.isEmpty
                    ? "no contacts (add one with: lsclient contacts add QRCODE)"
                    : (["\(Readable.count(sorted.count, "contact")):"]
                        + sorted.map { "  " + Readable.contact($0, clock: clock, showID: true) })
                        .joined(separator: "\n")
                return CommandResult(fields: ["contacts": .array(contacts.map(\.json))], text: text)
            }
        }
    }

    struct Add: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "add", abstract: "Add the owner of a QR code as a contact (contacts.add).")

        @OptionGroup var globals: GlobalOptions

        @Argument(help: "The QR code the other user shows (lsclient qr).")
        var qrCode: String

        @Flag(help: "They watch over you.")
        var responder = false

        @Flag(help: "You watch over them.")
        var dependent = false

        func run() async throws {
            try await OneShot.run(globals) { client, hello in
                let contact = try await client.addContact(
                    qrCode: qrCode, isResponder: responder, isDependent: dependent)
                let clock = RelativeTime(serverTime: hello.serverTime)
                return CommandResult(
                    fields: Reply.contact(contact).fields,
                    text: "added " + Readable.contact(contact, clock: clock, showID: true))
            }
        }
    }

    struct Remove: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "remove", abstract: "Remove a contact, for both of you (contacts.remove).")

        @OptionGroup var globals: GlobalOptions

        @Argument(help: "The contact's user id or name.")
        var contact: String

        func run() async throws {
            try await OneShot.run(globals) { client, _ in
                let target = try ContactResolver.resolve(contact, in: await client.state)
                try await client.removeContact(id: target.id)
                return CommandResult(fields: [:], text: "removed \(target.name) (\(target.id))")
            }
        }
    }

    struct Roles: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "roles",
            abstract: "Set a contact's roles to exactly the flags given; none means no role (contacts.setRoles).")

        @OptionGroup var globals: GlobalOptions

        @Argument(help: "The contact's user id or name.")
        var contact: String

        @Flag(help: "They watch over you.")
        var responder = false

        @Flag(help: "You watch over them.")
        var dependent = false

        func run() async throws {
            try await OneShot.run(globals) { client, hello in
                let target = try ContactResolver.resolve(contact, in: await client.state)
                let updated = try await client.setContactRoles(
                    id: target.id, isResponder: responder, isDependent: dependent)
                let clock = RelativeTime(serverTime: hello.serverTime)
                return CommandResult(
                    fields: Reply.contact(updated).fields, text: Readable.contact(updated, clock: clock, showID: true))
            }
        }
    }
}
