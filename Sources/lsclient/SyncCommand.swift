import ArgumentParser
import Foundation
import LifeSignalClient
import LifeSignalProtocol
import LifeSignalVersion

/// `lsclient --profile alice sync`: every device of the profile side by side, from the states
/// they saved, and whether each is in sync with the most advanced one.
struct SyncCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "sync",
        abstract: "Show every device of the profile side by side from their saved states: in sync, or how far behind.",
        discussion: """
            Each device's seq, the digest of its state (equal exactly when two states are), its \
            contacts, unread count and newest notification, and "in sync" when it is at the newest \
            seq any of them has reached with the same state, else "behind by N events". A `watch` \
            saves its state within a second of each event, so with --watch, while devices watch in \
            their own processes, the table is printed again whenever it changes and shows them converge. \
            With --live, sync connects each device itself (as that device, resuming from its saved state), \
            shows what each holds once caught up and saves it; --live --watch stays connected and prints \
            the table as events arrive.
            """)

    @OptionGroup var globals: GlobalOptions

    @Flag(help: "Keep reading the saved states and print the table again whenever it changes, until Ctrl-C.")
    var watch = false

    @Flag(help: """
        Connect each device (as that device, resuming from its saved state) and show what each holds \
        once caught up; with --watch, stay connected. A watch running as one of them is replaced.
        """)
    var live = false

    @Option(name: .customLong("for-ms"), help: "With --watch: stop after this many milliseconds.")
    var forMs: UInt64?

    func run() async throws {
        try await Failure.reporting {
            let store = try ProfileStore.resolve()
            let profile = try ProfileStore.checkedProfileName(globals.profileName)
            _ = try store.loadProfile(profile)
            var previous: [String]?
            let deadline = forMs.map { ContinuousClock.now + .milliseconds($0) }
            if live {
                let devices = store.devicesWithState(profile: profile)
                guard !devices.isEmpty else { throw CLIError.local("no device of profile '\(profile)' has a saved state yet") }
                try await LiveSync(globals: globals, devices: devices).run(keepWatching: watch, deadline: deadline) { rows in
                    show(DeviceSync(rows: rows), previous: &previous)
                }
                return
            }
            while true {
                let devices = try store.devicesWithState(profile: profile).map { device throws(CLIError) in
                    (device, try store.loadState(profile: profile, device: device))
                }.compactMap { device, state in state.map { DeviceSync.Row(device: device, state: $0) } }
                show(DeviceSync(rows: devices), previous: &previous)
                guard watch, deadline.map({ ContinuousClock.now < $0 }) ?? true else { break }
                try await Task.sleep(for: .milliseconds(250))
            }
        }
    }
}

extension SyncCommand {
    /// The table, or with --json its object; text only when it differs from the last one shown.
    func show(_ table: DeviceSync, previous: inout [String]?) {
        let lines = globals.json ? [] : table.lines(clock: RelativeTime())
        if globals.json {
            Console.json(table.json)
        } else if lines != previous {
            if previous != nil { Console.out("") }
            for line in lines { Console.out(line) }
        }
        previous = lines
    }
}

/// The devices of one profile compared: the reference is the most advanced seq, and the state a
/// device holds there.
struct DeviceSync {
    struct Row {
        let device: String
        let state: DeviceState
    }

    let rows: [Row]

    private var newestSeq: Int64 { rows.map(\.state.lastSeq).max() ?? 0 }
    /// The digests of the devices at the newest seq: more than one means they disagree.
    private var newestDigests: Set<String> { Set(rows.filter { $0.state.lastSeq == newestSeq }.map(\.state.digest)) }

    func status(of row: Row) -> String {
        let behind = newestSeq - row.state.lastSeq
        if behind > 0 { return "behind by \(Readable.count(Int(behind), "event"))" }
        return newestDigests.count == 1 ? "in sync" : "differs at seq \(newestSeq)"
    }

    var summary: String {
        if rows.isEmpty { return "no device of this profile has a saved state yet" }
        let inSync = rows.filter { status(of: $0) == "in sync" }.count
        if inSync == rows.count {
            return rows.count == 1 ? "1 device, at seq \(newestSeq)" : "all \(rows.count) devices in sync at seq \(newestSeq)"
        }
        return "\(rows.count - inSync) of \(rows.count) devices not in sync with seq \(newestSeq)"
    }

    func lines(clock: RelativeTime) -> [String] {
        var table = [["device", "seq", "digest", "contacts", "unread", "newest notification", "status"]]
        for row in rows {
            let newest = row.state.notifications.first.map { Readable.notificationBody($0, clock: clock) } ?? "-"
            table.append([row.device, "\(row.state.lastSeq)", row.state.digest, "\(row.state.contacts.count)",
                          "\(row.state.unreadCount)", newest, status(of: row)])
        }
        return (rows.isEmpty ? [] : TextColumns.aligned(table)) + [summary]
    }

    var json: JSONValue {
        .object([
            "type": .string("sync"),
            "newestSeq": .int(newestSeq),
            "devices": .array(rows.map { row in
                .object([
                    "device": .string(row.device), "seq": .int(row.state.lastSeq), "digest": .string(row.state.digest),
                    "contacts": .int(Int64(row.state.contacts.count)), "unread": .int(Int64(row.state.unreadCount)),
                    "behind": .int(newestSeq - row.state.lastSeq), "status": .string(status(of: row)),
                ])
            }),
            "summary": .string(summary),
        ])
    }
}
