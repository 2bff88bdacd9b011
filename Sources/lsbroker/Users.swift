import ArgumentParser
import Foundation
import LifeSignalBroker
import LifeSignalEngine
import LifeSignalPostgres
import LifeSignalStoreSQLite
import Logging

/// `lsbroker users QUERY`: what the store holds of a user, found by id or by name (any case), for
/// support and operations. Read-only, so it may run while the broker does.
struct Users: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Show users found by id or name: contacts, notifications and devices.",
        discussion: """
            QUERY is a user id, or a name in any case (every user of that name is shown, oldest first), \
            else a part of a name or the start of an id: every user whose name holds it. When none does, \
            the names near it are suggested. \
            For each: id, name, creation time, event head (seq), responders and dependents, notifications \
            and unread ones, and every stored device: platform, whether it has a push token (never the \
            token), last seen, online. Online comes from the cluster's presence table with --postgres; the \
            embedded store does not know it, so give --metrics-url to ask the running broker, else it \
            shows as unknown. With --json, one object per user per line. No user of that id or name: an \
            error, exit status 1.
            """)

    @Argument(help: "A user id, a name (any case), or part of one.")
    var query: String
    @Option(
        name: .customLong("data-dir"),
        help: .setting("Directory of the SQLite store.", env: "DATA_DIR", default: Serve.defaults.dataDirectory))
    var dataDirectory: String?
    @Option(help: .setting(
        "Read a cluster's users from this PostgreSQL instead of the data directory.", env: "POSTGRES",
        default: "the embedded store in --data-dir"))
    var postgres: String?
    @Option(name: .customLong("metrics-url"), help: """
        The running embedded broker's HTTP server (its --metrics-port), e.g. http://127.0.0.1:9090: asked \
        which devices are online.
        """)
    var metricsURL: String?
    @Option(name: .customLong("remove-token"), help: ArgumentHelp("""
        Remove this device's push token (its name as `devices` lists it) through the running broker \
        given by --metrics-url, as device.unregister would, then show the user.
        """, valueName: "DEVICE"))
    var removeTokenOf: String?
    @Flag(help: "One JSON object per user per line.")
    var json = false

    func run() throws {
        let environment = Environment(ProcessInfo.processInfo.environment)
        let users: any UserSummaries
        let store: String
        let clusterURL = try environment.resolve(postgres, "POSTGRES")
        if let url = clusterURL {
            // The presence table says who is online; a broker's own answer would be one broker's.
            guard metricsURL == nil || removeTokenOf != nil else {
                throw ValidationError("""
                    --metrics-url is for the embedded store, or --remove-token; with --postgres the presence table \
                    says who is online
                    """)
            }
            (users, store) = (try ClusterPushLog(url: url, logger: Logger(label: "lsbroker-users")), "the cluster's PostgreSQL")
        } else {
            let directory = try environment.resolve(dataDirectory, "DATA_DIR", Serve.defaults.dataDirectory)
            // As `lsbroker pushes` says it (PushLog.Missing), rather than SQLite's "unable to open".
            let path = (directory as NSString).appendingPathComponent("lifesignal.sqlite")
            guard FileManager.default.fileExists(atPath: path) else {
                throw CommandFailure(code: "failed", message: "no broker store at \(path)")
            }
            (users, store) = (try UserDirectory(directory: directory), directory)
        }
        let found = try users.users(matching: query)
        guard !found.matches.isEmpty else { throw UserSearch.notFound(query, nearby: found.nearby, in: store) }
        if let deviceID = removeTokenOf { try removeToken(of: deviceID, found) }
        var summaries = try found.matches.compactMap { try users.summary(of: $0.id) }
        if let metricsURL, clusterURL == nil { summaries = summaries.map { Self.withOnlineState($0, from: RunningBroker(baseURL: metricsURL)) } }
        let text = json
            ? summaries.map { $0.jsonLine + "\n" }.joined()
            : summaries.map(\.readableText).joined(separator: "\n")
        FileHandle.standardOutput.write(Data(text.utf8))
    }

    /// The token goes through the running broker, which holds loaded users' tokens in memory: a
    /// change behind its back in the store would be pushed to again.
    private func removeToken(of deviceID: String, _ found: UserSearch.Found) throws {
        guard let metricsURL else {
            throw ValidationError("--remove-token goes through the running broker: give its --metrics-url")
        }
        let users = found.matches
        let list = users.map { "\($0.name) (\($0.id))" }.joined(separator: ", ")
        // A change names its user: a part of a name that happens to match one user is not enough.
        guard found.isExact else {
            throw CommandFailure(code: "failed",
                                 message: "'\(query)' is part of a name (\(list)); --remove-token takes an id or a whole name")
        }
        guard users.count == 1, let user = users.first else {
            throw CommandFailure(code: "failed", message: "'\(query)' matches \(users.count) users: \(list); give the id")
        }
        let result = try RunningBroker(baseURL: metricsURL).removePushToken(of: user.id, device: deviceID)
        let line = switch result {
        case "removed": "removed the push token of \(user.name)'s device '\(deviceID)'"
        case "no_token": "\(user.name)'s device '\(deviceID)' has no push token"
        case "unknown_device": throw CommandFailure(code: "not_found", message: "\(user.name) has no device '\(deviceID)'")
        default: throw CommandFailure(code: "not_found", message: "the broker at \(metricsURL) does not know \(user.id)")
        }
        FileHandle.standardError.write(Data((line + "\n").utf8))
    }

    /// The broker's answer for each device; unknown (and a note on stderr) when it cannot be asked.
    private static func withOnlineState(_ summary: UserSummary, from client: RunningBroker) -> UserSummary {
        var summary = summary
        do {
            let online = try client.onlineDevices(of: summary.id)
            for index in summary.devices.indices {
                summary.devices[index].online = online.contains(summary.devices[index].id) ? .online(broker: nil) : .offline
            }
        } catch {
            FileHandle.standardError.write(Data("note: online state unknown: \(error)\n".utf8))
        }
        return summary
    }
}
