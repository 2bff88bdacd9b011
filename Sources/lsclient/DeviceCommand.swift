import ArgumentParser
import LifeSignalClient
import LifeSignalProtocol

struct DeviceCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "device",
        abstract: "Manage this device's push token.",
        subcommands: [Register.self, Unregister.self])

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
}
