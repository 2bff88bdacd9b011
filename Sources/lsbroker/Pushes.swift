import ArgumentParser
import Foundation
import LifeSignalBroker
import LifeSignalPostgres
import LifeSignalProtocol
import LifeSignalPush
import LifeSignalStoreSQLite
import Logging

/// `lsbroker pushes`: the pushes the broker has recorded (PROTOCOL §7), read from its store.
/// Read-only, so it may run while the broker does.
struct Pushes: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "List the pushes the broker has recorded.",
        discussion: """
            One line per push: time (UTC), user (name and id), device, token (shortened), title — body. \
            With --json, one object per line: userId, userName, deviceId, token, notificationId, \
            createdAt (ms) and message, the FCM HTTP v1 message (the body sent is {"message": …}).

            --user takes a user id or a name in any case. Several users of that name: the pushes of all \
            of them, each line naming its user with the id, and a note on stderr listing them. No user of \
            that id or name: an error, exit status 1.
            """)

    @Option(
        name: .customLong("data-dir"),
        help: .setting("Directory of the SQLite store.", env: "DATA_DIR", default: Serve.defaults.dataDirectory))
    var dataDirectory: String?
    @Option(help: .setting(
        "Read a cluster's pushes from this PostgreSQL instead of the data directory.", env: "POSTGRES",
        default: "the embedded store in --data-dir"))
    var postgres: String?
    @Option(help: "Only the pushes of this user: an id, or a name (any case; all users of that name).")
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
        let environment = Environment(ProcessInfo.processInfo.environment)
        let records: any PushRecords
        let users: any UserNames
        let store: String
        if let url = try environment.resolve(postgres, "POSTGRES") {
            let cluster = try ClusterPushLog(url: url, logger: Logger(label: "lsbroker-pushes"))
            (records, users, store) = (cluster, cluster, "the cluster's PostgreSQL")
        } else {
            let directory = try environment.resolve(dataDirectory, "DATA_DIR", Serve.defaults.dataDirectory)
            (records, users, store) = (try PushLog(directory: directory), try UserDirectory(directory: directory), directory)
        }
        var query = PushQuery(log: records)
        if let user { query.userIDs = try Self.resolve(user, in: users, store: store) }
        // Installed before the first read, so that a signal during it still ends the follow.
        if follow { StopSignals.install() }
        var lastPosition = try write(try query.latest(limit: limit), users: users) ?? 0
        guard follow else { return }
        while !StopSignals.stopRequested {
            let entries = try query.after(lastPosition, limit: 1_000)
            if let position = try write(entries, users: users) { lastPosition = position }
            if entries.count < 1_000 { Thread.sleep(forTimeInterval: Self.pollInterval) }
        }
    }

    /// The ids `--user` means; several users of one name are all meant, and listed on stderr.
    private static func resolve(_ query: String, in users: any UserNames, store: String) throws -> [String] {
        let found = try users.users(matching: query)
        let matches = found.matches
        guard !matches.isEmpty else { throw UserSearch.notFound(query, nearby: found.nearby, in: store) }
        if matches.count > 1 {
            let list = matches.map { "\($0.name) (\($0.id))" }.joined(separator: ", ")
            FileHandle.standardError.write(Data(
                "note: \(matches.count) users match '\(query)': \(list); showing the pushes of all of them\n".utf8))
        }
        return matches.map(\.id)
    }

    /// Prints `entries` and returns the last one's position.
    private func write(_ entries: [PushLog.Entry], users: any UserNames) throws -> Int64? {
        guard let last = entries.last else { return nil }
        var text = ""
        for entry in entries {
            let name = try users.name(of: entry.push.userID)
            text += (json ? jsonLine(entry.push, userName: name) : readableLine(entry.push, userName: name)) + "\n"
        }
        // Unbuffered, so that a follower piped into another program is read at once.
        FileHandle.standardOutput.write(Data(text.utf8))
        return last.position
    }

    private func jsonLine(_ push: PushMessage, userName: String?) -> String {
        let object: JSONObject = [
            "userId": .string(push.userID),
            "userName": userName.map(JSONValue.string) ?? .null,
            "deviceId": .string(push.deviceID),
            "token": .string(push.token),
            "notificationId": .string(push.notificationID),
            "createdAt": .int(push.createdAt),
            "message": Self.fcmMessage(push) ?? .null,
        ]
        return String(decoding: JSONValue.object(object).serialized(), as: UTF8.self)
    }

    /// `2025-11-22T05:13:20.123Z  Alice (u_…)  phone  fcm-token-of…  Ping — Bob pinged you.`
    private func readableLine(_ push: PushMessage, userName: String?) -> String {
        let notification = Self.fcmMessage(push)?.objectValue?["notification"]?.objectValue
        let title = notification?["title"]?.stringValue ?? "?"
        let body = notification?["body"]?.stringValue ?? "?"
        let token = push.token.count > 16 ? push.token.prefix(12) + "…" : push.token
        let user = userName.map { "\($0) (\(push.userID))" } ?? push.userID
        return "\(RFC3339.utcMilliseconds(push.createdAt))  \(user)  \(push.deviceID)  \(token)  \(title) — \(body)"
    }

    /// The `message` of the stored FCM body.
    private static func fcmMessage(_ push: PushMessage) -> JSONValue? {
        (try? JSONValue.parse(push.body))?.objectValue?["message"]
    }
}
