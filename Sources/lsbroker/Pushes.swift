import ArgumentParser
import Foundation
import LifeSignalBroker
import LifeSignalProtocol

/// `lsbroker pushes`: the pushes the broker has recorded (PROTOCOL §7), read from its store.
/// Read-only, so it may run while the broker does.
struct Pushes: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "List the pushes the broker has recorded.",
        discussion: """
            One line per push: time (UTC), user, device, token (shortened), title — body. With --json, \
            one object per line: userId, deviceId, token, notificationId, createdAt (ms) and message, \
            the FCM HTTP v1 message (the body sent is {"message": …}).
            """)

    @Option(
        name: .customLong("data-dir"),
        help: .setting("Directory of the SQLite store.", env: "DATA_DIR", default: Serve.defaults.dataDirectory))
    var dataDirectory: String?
    @Option(help: "Only the pushes of this user id.")
    var user: String?
    @Option(help: "Only the newest N (before following).")
    var limit: Int?
    @Flag(help: "Keep printing new pushes until SIGINT or SIGTERM.")
    var follow = false
    @Flag(help: "One JSON object per line.")
    var json = false

    /// How often `--follow` looks for new pushes.
    static let pollInterval = 0.2

    func validate() throws {
        if let limit, limit < 1 { throw ValidationError("--limit must be at least 1") }
    }

    func run() throws {
        let directory = try Environment(ProcessInfo.processInfo.environment)
            .resolve(dataDirectory, "DATA_DIR", Serve.defaults.dataDirectory)
        let log = try PushLog(directory: directory)
        // Installed before the first read, so that a signal during it still ends the follow.
        if follow { StopSignals.install() }
        var lastPosition = write(try log.latest(userID: user, limit: limit)) ?? 0
        guard follow else { return }
        while !StopSignals.stopRequested {
            let entries = try log.after(lastPosition, userID: user, limit: 1_000)
            if let position = write(entries) { lastPosition = position }
            if entries.count < 1_000 { Thread.sleep(forTimeInterval: Self.pollInterval) }
        }
    }

    /// Prints `entries` and returns the last one's position.
    private func write(_ entries: [PushLog.Entry]) -> Int64? {
        guard let last = entries.last else { return nil }
        var text = ""
        for entry in entries { text += (json ? jsonLine(entry.push) : readableLine(entry.push)) + "\n" }
        // Unbuffered, so that a follower piped into another program is read at once.
        FileHandle.standardOutput.write(Data(text.utf8))
        return last.position
    }

    private func jsonLine(_ push: PushMessage) -> String {
        let object: JSONObject = [
            "userId": .string(push.userID),
            "deviceId": .string(push.deviceID),
            "token": .string(push.token),
            "notificationId": .string(push.notificationID),
            "createdAt": .int(push.createdAt),
            "message": Self.fcmMessage(push) ?? .null,
        ]
        return String(decoding: JSONValue.object(object).serialized(), as: UTF8.self)
    }

    private func readableLine(_ push: PushMessage) -> String {
        let notification = Self.fcmMessage(push)?.objectValue?["notification"]?.objectValue
        let title = notification?["title"]?.stringValue ?? "?"
        let body = notification?["body"]?.stringValue ?? "?"
        let token = push.token.count > 16 ? push.token.prefix(12) + "…" : push.token
        return "\(Self.timestamp(push.createdAt))  \(push.userID)  \(push.deviceID)  \(token)  \(title) — \(body)"
    }

    /// The `message` of the stored FCM body.
    private static func fcmMessage(_ push: PushMessage) -> JSONValue? {
        (try? JSONValue.parse(push.body))?.objectValue?["message"]
    }

    private static func timestamp(_ milliseconds: Int64) -> String {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        return formatter.string(from: Date(timeIntervalSince1970: Double(milliseconds) / 1000))
    }
}
