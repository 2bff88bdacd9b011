import LifeSignalClient
import LifeSignalProtocol

/// A one-shot command: connect (resuming from the saved state), run one exchange, save the state,
/// say `bye`. With `--json`, each snapshot and event received while running is printed before the
/// result line, in the order it arrived.
enum OneShot {
    /// `queueing`: the write this command makes, kept in the device's outbox (PROTOCOL §12) if
    /// the broker cannot be reached (`--queue`); `lsclient outbox send` sends it later, once.
    static func run(
        _ globals: GlobalOptions,
        queueing write: Write? = nil,
        _ body: (LifeSignalClient, HelloResult) async throws -> CommandResult
    ) async throws {
        try await Failure.reporting {
            let context = try CommandContext(globals)
            // A one-shot reports a dropped connection rather than retrying behind the user's back.
            let client = try context.makeClient(reconnect: .disabled)
            var outcome: Result<CommandResult, any Error>
            do {
                let hello = try await client.connect()
                outcome = .success(try await body(client, hello))
            } catch {
                outcome = .failure(error)
            }
            if let write, case .failure(let error) = outcome, Self.isOutOfReach(error) {
                do {
                    outcome = .success(try await queue(write, context, because: error))
                } catch {
                    outcome = .failure(error)
                }
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

    /// The broker was never reached: nothing was sent, so the write can wait in the outbox.
    /// (A write whose connection dropped in flight may have run; the broker's answer to it is
    /// lost, and it is not queued again under another opId.)
    private static func isOutOfReach(_ error: any Error) -> Bool {
        switch error as? LifeSignalClientError {
        case .connectionFailed?, .notConnected?: true
        default: false
        }
    }

    private static func queue(_ write: Write, _ context: CommandContext, because error: any Error) async throws
        -> CommandResult
    {
        let offline = try context.makeClient(reconnect: .disabled, withOutbox: true)
        defer { Task { await offline.close() } }
        let operation = try await offline.enqueue(write)
        let waiting = await offline.pendingOperations.count
        Console.err("lsclient: \((error as? LifeSignalClientError)?.message ?? "\(error)")")
        return CommandResult(
            fields: ["queued": .object(OutboxLines.fields(of: operation))],
            text: "queued \(write.op) (\(operation.id)): the broker is out of reach; "
                + "\(waiting) waiting, sent once by: lsclient outbox send")
    }
}
