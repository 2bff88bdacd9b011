import LifeSignalClient
import LifeSignalProtocol

/// A one-shot command: connect (resuming from the saved state), run one exchange, save the state,
/// say `bye`. With `--json`, each snapshot and event received while running is printed before the
/// result line, in the order it arrived.
enum OneShot {
    static func run(
        _ globals: GlobalOptions,
        _ body: (LifeSignalClient, HelloResult) async throws -> CommandResult
    ) async throws {
        try await Failure.reporting {
            let context = try CommandContext(globals)
            // A one-shot reports a dropped connection rather than retrying behind the user's back.
            let client = try context.makeClient(reconnect: .disabled)
            let outcome: Result<CommandResult, any Error>
            do {
                let hello = try await client.connect()
                outcome = .success(try await body(client, hello))
            } catch {
                outcome = .failure(error)
            }
            context.saveState(await client.state)
            if await client.isConnected { try? await client.bye() }
            await client.close()
            if globals.json {
                // close() finished the stream; this drains what was buffered, in order.
                for await event in client.events {
                    switch event {
                    case .event, .snapshot: Console.json(JSONLines.line(for: event))
                    case .connected, .disconnected, .reconnecting: break
                    }
                }
            }
            try outcome.get().print(json: globals.json)
        }
    }
}
