import ArgumentParser
import LifeSignalClient
import LifeSignalProtocol

struct AlertCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "alert",
        abstract: "Raise an emergency alert to your responders, or cancel it.",
        subcommands: [Trigger.self, Cancel.self],
        defaultSubcommand: Trigger.self)

    struct Trigger: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "trigger",
            abstract: "Raise an emergency alert; while one is active, shows that one (alert.trigger).")

        @OptionGroup var globals: GlobalOptions

        @Option(help: "What is happening (up to 500 characters).")
        var message: String?

        @OptionGroup var queue: QueueOption

        func run() async throws {
            try await OneShot.run(globals, queueing: queue.queueing(.alertTrigger(message: message))) { client, hello in
                let active = await client.state?.user.alert
                let alertID = try await client.triggerAlert(message: message)
                let state = await client.state
                let clock = RelativeTime(serverTime: hello.serverTime)
                let text: String
                if let active, active.id == alertID {
                    // The broker returns the active alert and notifies no one again.
                    text = "an alert is already active: " + Readable.alert(active, clock: clock)
                } else {
                    let responders = (state?.sortedContacts ?? []).filter(\.isResponder).map(\.name)
                    text = responders.isEmpty
                        ? "ALERT raised; you have no responders to notify "
                            + "(add one with: lsclient contacts add QRCODE --responder)"
                        : "ALERT raised; notified \(responders.joined(separator: ", "))"
                }
                return CommandResult(fields: ["alertId": .string(alertID)], text: text)
            }
        }
    }

    struct Cancel: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "cancel", abstract: "Cancel your active alert (alert.cancel).")

        @OptionGroup var globals: GlobalOptions
        @OptionGroup var queue: QueueOption

        func run() async throws {
            try await OneShot.run(globals, queueing: queue.queueing(.alertCancel)) { client, _ in
                try await client.cancelAlert()
                return CommandResult(fields: [:], text: "alert cancelled; your responders were told")
            }
        }
    }
}
