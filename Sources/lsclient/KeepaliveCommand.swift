import ArgumentParser
import LifeSignalClient
import LifeSignalProtocol

struct KeepaliveCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "keepalive", abstract: "Send one keepalive and print the server time.")

    @OptionGroup var globals: GlobalOptions

    func run() async throws {
        try await OneShot.run(globals) { client, _ in
            let time = try await client.keepalive()
            return CommandResult(fields: Reply.serverTime(time).fields, text: "ok, server time \(Readable.time(time))")
        }
    }
}
