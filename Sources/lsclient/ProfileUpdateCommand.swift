import ArgumentParser
import LifeSignalClient
import LifeSignalProtocol

struct ProfileUpdateCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "update", abstract: "Change only the given profile fields (profile.update).")

    @OptionGroup var globals: GlobalOptions

    @Option(help: "New name.")
    var name: String?

    @Option(help: "New phone number.")
    var phone: String?

    @Flag(help: "Remove the phone number.")
    var clearPhone = false

    // Unconditional, so that "--interval -5" is read as its (wrong) value, not as a missing one.
    @Option(
        name: .customLong("interval"), parsing: .unconditional,
        help: "Check-in interval: 90s, 30m, 1h, 2d, 1h30m, or plain seconds (the broker allows 60s to 30d by default).")
    var interval: CheckInInterval?

    @Option(help: "Push notifications: on or off.")
    var push: OnOff?

    @Option(help: "Notification types not to push, comma-separated (\"none\" unmutes all).")
    var mute: String?

    enum OnOff: String, ExpressibleByArgument {
        case on, off
    }

    func validate() throws {
        if phone != nil && clearPhone { throw ValidationError("--phone and --clear-phone exclude each other") }
        if name == nil && phone == nil && !clearPhone && interval == nil && push == nil && mute == nil {
            throw ValidationError("nothing to update: give at least one of --name, --phone, --clear-phone, "
                + "--interval, --push, --mute")
        }
        _ = try mutedTypes()
    }

    /// nil when not given; "none" or "" is the empty list.
    func mutedTypes() throws -> [NotificationType]? {
        guard let mute else { return nil }
        let names = mute.split(separator: ",").map { $0.trimmingCharacters() }.filter { !$0.isEmpty && $0 != "none" }
        return try names.map { name in
            guard let type = NotificationType(rawValue: name) else {
                let known = NotificationType.allCases.map(\.rawValue).joined(separator: ", ")
                throw ValidationError("unknown notification type '\(name)' (known: \(known))")
            }
            return type
        }
    }

    func run() async throws {
        // Only the preference fields given: the broker merges them into the current ones.
        let update = ProfileUpdate(
            name: name, phone: clearPhone ? .some(nil) : phone.map { .some($0) }, checkInIntervalSec: interval?.seconds,
            push: push.map { $0 == .on }, mutedTypes: try mutedTypes())
        try await OneShot.run(globals) { client, hello in
            let user = try await client.updateProfile(update)
            let clock = RelativeTime(serverTime: hello.serverTime)
            return CommandResult(fields: Reply.user(user).fields, text: Readable.user(user, clock: clock))
        }
    }
}

extension Substring {
    /// Without surrounding spaces.
    fileprivate func trimmingCharacters() -> String {
        String(drop(while: { $0 == " " }).reversed().drop(while: { $0 == " " }).reversed())
    }
}
