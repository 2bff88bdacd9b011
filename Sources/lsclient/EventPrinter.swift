import LifeSignalClient
import LifeSignalProtocol

/// `watch`'s lines for people. It keeps its own copy of the device state, applying each frame as it
/// prints it: `notification.deleted` and `contact.removed` carry only an id, and the copy still
/// knows what that id was. (The client's state may already be further ahead than the line being
/// printed, so it cannot serve.)
///
/// Every event line starts with its seq and when it arrived (dimmed on a terminal), so that two
/// devices' lines can be matched. Events of a catch-up (replayed after a connect, before its
/// "connected" line) are then marked `[missed]`, with the time they happened where the event says
/// it, so that old news does not read as new. A snapshot is history, not missed: its notifications
/// are marked `[history]` and printed oldest first, like the rest of the stream.
struct EventPrinter {
    var clock: RelativeTime
    private var state: DeviceState?
    /// Until "connected", and again after a disconnection: the events are a catch-up.
    private var isCatchingUp = true
    private var hasConnected = false
    /// The broker of the last connection, to say when the device moved to another.
    private var broker: String?

    init(state: DeviceState?, clock: RelativeTime) {
        self.state = state
        self.clock = clock
    }

    mutating func lines(for event: ClientEvent) -> [String] {
        switch event {
        case .connected(let hello):
            clock.sync(serverTime: hello.serverTime)
            isCatchingUp = false
            hasConnected = true
            let unread = state.map { ", \($0.unreadCount) unread" } ?? ""
            var on = hello.broker.map { ", on broker \($0)" } ?? ""
            if let previous = broker, let current = hello.broker, previous != current { on += " (moved from \(previous))" }
            broker = hello.broker ?? broker
            return ["connected as \(hello.user.name) (seq \(hello.lastSeq))\(unread)\(on)"]
        case .snapshot(let snapshot):
            state = DeviceState(snapshot: snapshot)
            return snapshotLines(snapshot)
        case .event(let seq, let name, let data):
            let before = state
            // The client has applied this already, so it applies here too; if not, the line still prints.
            try? state?.apply(seq: seq, name: name, data: data)
            let line = eventLine(name: name, data: data, before: before)
            let news = isCatchingUp ? Self.missedMark(at: Self.time(ofEvent: name, data: data)) + line : line
            return [Style.dim("#\(seq) \(Readable.clockTime(clock.nowMs))") + "  " + news]
        case .disconnected(let error, let willReconnect):
            isCatchingUp = true
            return [ConnectionLines.disconnected(error, willReconnect: willReconnect, nowMs: clock.nowMs)]
        case .reconnecting(let attempt, let delayMs, let error):
            return [ConnectionLines.reconnecting(
                attempt: attempt, delayMs: delayMs, error: error, wasConnected: hasConnected, nowMs: clock.nowMs)]
        }
    }

    /// `[missed 2025-11-22 05:13:20Z] `, or `[missed] ` when the event does not say when.
    private static func missedMark(at time: Int64?) -> String {
        "[missed" + (time.map { " " + Readable.time($0) } ?? "") + "] "
    }

    /// `[history 2025-11-22 05:13:20Z] `: what a snapshot holds happened before this device knew.
    private static func historyMark(at time: Int64) -> String {
        "[history " + Readable.time(time) + "] "
    }

    /// When what an event reports happened, where the event carries it: a notification's time.
    private static func time(ofEvent name: String, data: JSONValue) -> Int64? {
        guard case .notificationAdded(let notification)? = try? Event(name: name, data: data) else { return nil }
        return notification.timestamp
    }

    /// The summary, then each unread notification the snapshot holds, oldest first.
    private func snapshotLines(_ snapshot: Snapshot) -> [String] {
        var lines = [
            "caught up from a snapshot at seq \(snapshot.seq): \(snapshot.user.name), "
                + "\(Readable.count(snapshot.contacts.count, "contact")), "
                + "\(Readable.count(snapshot.notifications.count, "notification")), \(snapshot.unreadCount) unread"
        ]
        let unread = snapshot.notifications.filter { !$0.isRead }
        // The snapshot carries only the newest notifications; older unread ones exist but are not here.
        if snapshot.unreadCount > unread.count, let oldest = snapshot.notifications.last {
            let older = snapshot.unreadCount - unread.count
            lines.append("  … \(older) older unread first (lsclient notifications --before \(oldest.id) --unread)")
        }
        return lines + unread.reversed().map {
            "  " + Self.historyMark(at: $0.timestamp) + Readable.notification($0, clock: clock)
        }
    }

    private func eventLine(name: String, data: JSONValue, before: DeviceState?) -> String {
        switch try? Event(name: name, data: data) {
        case .userUpdated(let user):
            return "you" + ChangeNotes.note(ChangeNotes.changes(from: before?.user, to: user)) + ": " + self.user(user)
        case .contactUpdated(let contact):
            guard let previous = before?.contacts[contact.id] else {
                return "contact added: " + Readable.contact(contact, clock: clock)
            }
            return "contact updated" + ChangeNotes.note(ChangeNotes.changes(from: previous, to: contact)) + ": "
                + Readable.contact(contact, clock: clock)
        case .contactRemoved(let id):
            return "contact removed: " + (before?.contacts[id]?.name ?? id)
        case .notificationAdded(let notification):
            return Readable.notification(notification, clock: clock)
        case .notificationUpdated(let notification):
            return "marked \(notification.isRead ? "read" : "unread"): " + Readable.notificationBody(notification, clock: clock)
        case .notificationDeleted(let id):
            if let notification = before?.notifications.first(where: { $0.id == id }) {
                return "deleted: " + Readable.notificationBody(notification, clock: clock)
            }
            return "deleted: notification \(id)"
        case .notificationsReadAll(let count):
            return "all marked read: \(Readable.count(Int(count), "notification"))"
        case .devicesChanged(let devices, let revoked)?:
            let list = devices.map(\.device).joined(separator: ", ")
            return (revoked.map { "device \($0) revoked; " } ?? "") + "devices: " + (list.isEmpty ? "none" : list)
        case .unknown?, nil:
            // Unknown, or data this version cannot read: shown as it came.
            return "\(name): " + String(decoding: data.serialized(), as: UTF8.self)
        }
    }

    /// `Alice — check-in every 1d; checked in just now, due in 1d; ALERT since just now: "help"`.
    private func user(_ user: User) -> String {
        var items = ["check-in every \(Readable.duration(seconds: user.checkInIntervalSec))"]
        var checkIn = user.lastCheckInAt.map { "checked in \(clock.ago($0))" } ?? "never checked in"
        if let deadline = user.checkInDeadline { checkIn += ", due \(clock.until(deadline))" }
        items.append(checkIn)
        if user.isNonResponsive { items.append(Style.alarm("MISSED CHECK-IN")) }
        if let alert = user.alert { items.append(Readable.alert(alert, clock: clock)) }
        return "\(user.name) — " + items.joined(separator: "; ")
    }
}
