import ArgumentParser
import LifeSignalClient
import LifeSignalProtocol

struct QRCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "qr",
        abstract: "Show the QR code others use to add this user, rotate it, or look up whose a code is.",
        subcommands: [Show.self, Rotate.self, Lookup.self],
        defaultSubcommand: Show.self)

    struct Show: AsyncParsableCommand {
        static let configuration = CommandConfiguration(commandName: "show", abstract: "Print the QR code.")

        @OptionGroup var globals: GlobalOptions

        func run() async throws {
            try await OneShot.run(globals) { client, hello in
                let code = await client.state?.user.qrCode ?? hello.user.qrCode
                return CommandResult(fields: ["qrCode": .string(code)], text: code)
            }
        }
    }

    struct Rotate: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "rotate", abstract: "Replace the QR code; the old one stops working (qr.rotate).")

        @OptionGroup var globals: GlobalOptions

        func run() async throws {
            try await OneShot.run(globals) { client, _ in
                let code = try await client.rotateQRCode()
                return CommandResult(fields: Reply.qrCode(code).fields, text: code)
            }
        }
    }

    struct Lookup: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "lookup", abstract: "Show whose QR code this is, without adding anyone (qr.lookup).")

        @OptionGroup var globals: GlobalOptions

        @Argument(help: "The QR code the other user shows (lsclient qr).")
        var qrCode: String

        func run() async throws {
            try await OneShot.run(globals) { client, _ in
                let owner = try await client.lookUpQRCode(qrCode)
                return CommandResult(fields: Reply.qrCodeOwner(owner).fields, text: "\(owner.name) (\(owner.id))")
            }
        }
    }
}
