import ArgumentParser
import LifeSignalClient
import LifeSignalProtocol

struct KeepaliveCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "keepalive", abstract: "Send one keepalive and print the server time.")

    @OptionGroup var globals: GlobalOptions

    func run() async throws {
        try await OneShot.run(globals) { client, _ in
            let result = try await client.request(Op.keepalive)
            let time = result["serverTime"]?.intValue.map(Readable.time) ?? "?"
            return CommandResult(fields: result, text: "ok, server time \(time)")
        }
    }
}
