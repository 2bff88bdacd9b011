import ArgumentParser
import LifeSignalClient
import LifeSignalProtocol

struct WatchCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "watch",
        abstract: "Stay connected and print the catch-up, then every event as it arrives.",
        discussion: """
            Prints the catch-up (the missed events, each marked [missed], or a snapshot), a "connected" \
            line once caught up, then live events, until SIGINT/SIGTERM, --count or --for-ms. When the \
            connection drops it says so and when the next try is, and reconnects with resume. A broker \
            that cannot be reached at the start is a connection failure (exit 2), unless --wait is given. \
            The state is saved once caught up, within a second of each event, and on exit, so a watch \
            that is killed shows again at most the last second's events. Writes queued with --queue \
            are sent, once, each time it is connected (as by lsclient outbox send).
            """)

    @OptionGroup var globals: GlobalOptions

    @Option(help: "Exit after this many event lines (catch-up events count).")
    var count: Int?

    @Option(name: .customLong("for-ms"), help: "Exit after this many milliseconds.")
    var forMs: UInt64?

    @Flag(help: "If the broker cannot be reached at the start, keep trying until it can (as after a drop).")
    var wait = false

    func validate() throws {
        if let count, count < 1 { throw ValidationError("--count must be at least 1") }
    }

    func run() async throws {
        try await Failure.reporting {
            let context = try CommandContext(globals)
            let client = try context.makeClient(reconnect: ReconnectPolicy(retriesFirstConnect: wait), withOutbox: true)
            let stateFile = context.stateFile
            let autosave = StateAutosave(read: { await client.state }, write: { stateFile.save($0) })
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
            // Connecting runs beside the printing, so that a watch waiting for its broker says so.
            let connecting = Task { await Self.connect(client) }
            let lost = await printEvents(of: client, autosave: autosave, printer: &printer)
            await Self.stop(client)
            await autosave.saveNow()
            if let failure = await connecting.value ?? lost { throw failure }
        }
    }

    /// The error that stopped the first connect, if one did; the client is then closed, which ends
    /// its event stream.
    private static func connect(_ client: LifeSignalClient) async -> LifeSignalClientError? {
        do {
            try await client.connect()
            return nil
        } catch LifeSignalClientError.closed {
            return nil  // stopped by a signal or --for-ms while connecting
        } catch {
            await client.close()
            return error as? LifeSignalClientError ?? .connectionFailed("\(error)")
        }
    }

    /// Prints until the stream ends or `--count` is reached; returns the error that ended the session
    /// for good, if one did.
    private func printEvents(of client: LifeSignalClient, autosave: StateAutosave, printer: inout EventPrinter)
        async -> LifeSignalClientError?
    {
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
                await autosave.changed()
                eventLines += 1
                if let count, eventLines >= count { return nil }
            case .snapshot:
                await autosave.changed()
            case .connected:
                await autosave.saveNow()  // the catch-up is complete
            case .disconnected(let error?, false):
                return error
            default:
                break
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
