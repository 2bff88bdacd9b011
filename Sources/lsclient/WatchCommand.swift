import ArgumentParser
import LifeSignalClient
import LifeSignalProtocol

struct WatchCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "watch",
        abstract: "Stay connected and print the catch-up, then every event as it arrives.",
        discussion: """
            Prints the catch-up (the missed events, or a snapshot), a "connected" line once caught up, \
            then live events, until SIGINT/SIGTERM, --count or --for-ms. Reconnects with resume when the \
            connection drops. The state is saved as it goes and on exit.
            """)

    @OptionGroup var globals: GlobalOptions

    @Option(help: "Exit after this many event lines (catch-up events count).")
    var count: Int?

    @Option(name: .customLong("for-ms"), help: "Exit after this many milliseconds.")
    var forMs: UInt64?

    func validate() throws {
        if let count, count < 1 { throw ValidationError("--count must be at least 1") }
    }

    func run() async throws {
        try await Failure.reporting {
            let context = try CommandContext(globals)
            let client = try context.makeClient(reconnect: .default)
            let trap = SignalTrap { Task { await Self.stop(client) } }
            defer { trap.cancel() }
            let deadline = forMs.map { milliseconds in
                Task {
                    try await Task.sleep(for: .milliseconds(milliseconds))
                    await Self.stop(client)
                }
            }
            defer { deadline?.cancel() }

            // Before connecting: the printer follows the catch-up from the state it starts from.
            var printer = EventPrinter(state: await client.state, clock: RelativeTime())
            do {
                let hello = try await client.connect()
                printer.clock.sync(serverTime: hello.serverTime)
            } catch LifeSignalClientError.closed {
                // Stopped by a signal or --for-ms while connecting: keep what the catch-up applied.
                context.saveState(await client.state)
                return
            } catch {
                context.saveState(await client.state)
                await client.close()
                throw error
            }
            let failure = await printEvents(of: client, context: context, printer: &printer)
            await Self.stop(client)
            context.saveState(await client.state)
            if let failure { throw failure }
        }
    }

    /// Prints until the stream ends or `--count` is reached; returns the error that ended the session
    /// for good, if one did.
    private func printEvents(of client: LifeSignalClient, context: CommandContext, printer: inout EventPrinter) async
        -> LifeSignalClientError?
    {
        let clock = ContinuousClock()
        var lastSave = clock.now
        var eventLines = 0
        for await event in client.events {
            if case .disconnected(nil, _) = event { continue }  // our own bye or close: not news
            if globals.json {
                Console.json(JSONLines.line(for: event))
            } else {
                for line in printer.lines(for: event) { Console.out(line) }
            }
            switch event {
            case .event:
                eventLines += 1
                if let count, eventLines >= count { return nil }
            case .disconnected(let error?, false):
                return error
            default:
                break
            }
            // A killed watch then resumes from at most a second back.
            if clock.now - lastSave >= .seconds(1) {
                context.saveState(await client.state)
                lastSave = clock.now
            }
        }
        return nil
    }

    /// `bye` if connected (bounded by a second), then close, which ends the event stream.
    static func stop(_ client: LifeSignalClient) async {
        let fallback = Task {
            try await Task.sleep(for: .seconds(1))
            await client.close()
        }
        if await client.isConnected { try? await client.bye() }
        fallback.cancel()
        await client.close()
    }
}
