import ArgumentParser
import LifeSignalClient
import LifeSignalProtocol

struct DeviceCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "device",
        abstract: "Manage this device's push token, link a new device, revoke one.",
        subcommands: [Register.self, Unregister.self, Link.self, Revoke.self])

    struct Register: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "register", abstract: "Store this device's push token (device.register).")

        @OptionGroup var globals: GlobalOptions

        @Argument(help: "The FCM-style push token.")
        var token: String

        @Option(help: "The device's platform, e.g. ios or android.")
        var platform: String?

        func run() async throws {
            try await OneShot.run(globals) { [token, platform] client, _ in
                let result = try await client.request(.deviceRegister(token: token, platform: platform))
                return CommandResult(fields: result, text: "push token registered for device \(client.configuration.deviceID)")
            }
        }
    }

    struct Unregister: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "unregister", abstract: "Remove this device's push token (device.unregister).")

        @OptionGroup var globals: GlobalOptions

        func run() async throws {
            try await OneShot.run(globals) { client, _ in
                let result = try await client.request(.deviceUnregister)
                return CommandResult(fields: result, text: "push token removed for device \(client.configuration.deviceID)")
            }
        }
    }

    struct Link: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "link", abstract: "A one-time code that signs a new device in to this account (device.link).",
            discussion: "On a terminal it prints the code's QR code too; piped, only the code. On the new device: "
                + "lsclient --profile NAME signin CODE. The code works once, for five minutes.")

        @OptionGroup var globals: GlobalOptions

        func run() async throws {
            try await OneShot.run(globals) { client, _ in
                let link = try await client.linkDevice()
                let fields: JSONObject = ["code": .string(link.code), "expiresAt": .int(link.expiresAt)]
                guard Style.isTerminal else { return CommandResult(fields: fields, text: link.code) }
                let lines = [TerminalQRCode.render(link.code), "link code \(link.code), valid until \(Readable.time(link.expiresAt))",
                             "on the new device: lsclient --profile NAME signin \(link.code)"]
                return CommandResult(fields: fields, text: lines.compactMap { $0 }.joined(separator: "\n"))
            }
        }
    }

    struct Revoke: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "revoke",
            abstract: "Revoke a device of this account (device.revoke): its token and push token go, it is disconnected.",
            discussion: "Revoking this very device signs it out.")

        @OptionGroup var globals: GlobalOptions

        @Argument(help: "The device id, as `lsclient devices` lists it.")
        var device: String

        func run() async throws {
            try await OneShot.run(globals) { [device] client, _ in
                // The library's: revoking this very device signs it out (no reconnect).
                try await client.revokeDevice(device)
                let signedOut = device == client.configuration.deviceID
                return CommandResult(fields: [:], text: signedOut ? "signed out: device \(device) revoked" : "device \(device) revoked")
            }
        }
    }
}
