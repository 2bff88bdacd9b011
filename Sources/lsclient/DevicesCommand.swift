import ArgumentParser
import LifeSignalClient
import LifeSignalProtocol

struct DevicesCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "devices", abstract: "List the user's devices (devices.list).")

    @OptionGroup var globals: GlobalOptions

    func run() async throws {
        try await OneShot.run(globals) { client, _ in
            let result = try await client.request(Op.devicesList)
            let devices = (result["devices"]?.arrayValue ?? []).compactMap { try? DeviceInfo(json: $0) }
            let text = devices.isEmpty ? "no devices" : devices.map(Readable.device).joined(separator: "\n")
            return CommandResult(fields: result, text: text)
        }
    }
}
