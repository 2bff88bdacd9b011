import ArgumentParser
import LifeSignalClient
import LifeSignalProtocol

struct DevicesCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "devices", abstract: "List the user's devices (devices.list).")

    @OptionGroup var globals: GlobalOptions

    func run() async throws {
        try await OneShot.run(globals) { client, _ in
            let devices = try await client.listDevices()
            let text = devices.isEmpty ? "no devices" : Readable.devices(devices).joined(separator: "\n")
            return CommandResult(fields: Reply.devices(devices).fields, text: text)
        }
    }
}
