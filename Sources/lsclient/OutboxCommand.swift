import ArgumentParser
import LifeSignalClient
import LifeSignalProtocol

struct OutboxCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "outbox",
        abstract: "Writes queued while the broker was out of reach (--queue): list them, or send them.",
        discussion: """
            Each is sent under the opId it was queued with, so it acts once however often it is sent: \
            after a lost answer, a dropped connection or a killed lsclient.
            """,
        subcommands: [List.self, Send.self],
        defaultSubcommand: List.self)

    struct List: AsyncParsableCommand {
        static let configuration = CommandConfiguration(commandName: "list", abstract: "List the queued writes, oldest first.")

        @OptionGroup var globals: GlobalOptions

        func run() async throws {
            try await Failure.reporting {
                let context = try CommandContext(globals)
                let pending = try context.store.outbox(profile: context.profileName, device: context.device).load()
                let text = pending.isEmpty
                    ? "nothing queued"
                    : pending.map(OutboxLines.text(of:)).joined(separator: "\n")
                CommandResult(fields: ["pending": .array(pending.map { .object(OutboxLines.fields(of: $0)) })], text: text)
                    .print(json: globals.json)
            }
        }
    }

    struct Send: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "send", abstract: "Connect and send the queued writes in order; each leaves once answered.")

        @OptionGroup var globals: GlobalOptions

        func run() async throws {
            try await Failure.reporting {
                let context = try CommandContext(globals)
                let client = try context.makeClient(reconnect: .disabled, withOutbox: true)
                let outcomes = await client.operationOutcomes()
                var outcome: Result<Void, any Error> = .success(())
                do {
                    try await client.connect()
                    await client.flushOutbox()
                } catch {
                    outcome = .failure(error)
                }
                let left = await client.pendingOperations.count
                context.saveState(await client.state)
                if await client.isConnected { try? await client.bye() }
                await client.close()
                var sent: [OperationOutcome] = []
                for await each in outcomes { sent.append(each) }
                try outcome.get()
                var lines = sent.map(OutboxLines.text(of:))
                lines.append(left == 0 ? "nothing left queued" : "\(left) still queued: the broker did not take them now")
                CommandResult(fields: ["sent": .array(sent.map { .object(OutboxLines.fields(of: $0)) }),
                                       "pending": .int(Int64(left))],
                              text: lines.joined(separator: "\n")).print(json: globals.json)
                if left > 0 { throw ExitCode(1) }
            }
        }
    }
}
