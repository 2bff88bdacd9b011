import ArgumentParser
import LifeSignalClient
import LifeSignalProtocol

struct CheckInCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "checkin", abstract: "Check in: tell your responders you are fine (checkin).")

    @OptionGroup var globals: GlobalOptions
    @OptionGroup var queue: QueueOption

    func run() async throws {
        try await OneShot.run(globals, queueing: queue.queueing(.checkIn)) { client, hello in
            let wasNonResponsive = await client.state?.user.isNonResponsive ?? false
            let user = try await client.checkIn()
            let clock = RelativeTime(serverTime: hello.serverTime)
            var text = "checked in"
            if let deadline = user.checkInDeadline {
                text += "; next check-in due \(clock.until(deadline)) (\(Readable.time(deadline)))"
            }
            if wasNonResponsive { text += "\nyour responders were told you checked in" }
            return CommandResult(fields: Reply.user(user).fields, text: text)
        }
    }
}
