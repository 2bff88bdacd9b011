import LifeSignalClient
import LifeSignalProtocol

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Text for people (the default output).
enum Readable {
    static func user(_ user: User) -> String {
        var lines = [
            "\(user.name) (\(user.id))",
            "  phone:       \(user.phone ?? "-")",
            "  QR code:     \(user.qrCode)",
            "  check-in:    every \(duration(seconds: user.checkInIntervalSec))"
                + (user.lastCheckInAt.map { ", last \(time($0))" } ?? ", never yet")
                + (user.checkInDeadline.map { ", due \(time($0))" } ?? ""),
            "  push:        \(user.preferences.push ? "on" : "off")"
                + (user.preferences.mutedTypes.isEmpty
                    ? "" : ", muted: " + user.preferences.mutedTypes.map(\.rawValue).joined(separator: ",")),
        ]
        if user.isNonResponsive { lines.append("  NON-RESPONSIVE: missed a check-in") }
        if let alert = user.alert {
            lines.append("  ALERT since \(time(alert.startedAt))" + (alert.message.map { ": \($0)" } ?? ""))
        }
        lines.append("  created:     \(time(user.createdAt))")
        return lines.joined(separator: "\n")
    }

    static func contact(_ contact: Contact) -> String {
        var flags: [String] = []
        if contact.incomingPingAt != nil { flags.append("pinged you") }
        if contact.outgoingPingAt != nil { flags.append("ping pending") }
        if contact.isNonResponsive { flags.append("NON-RESPONSIVE") }
        if contact.hasActiveAlert { flags.append("ALERT") }
        let suffix = flags.isEmpty ? "" : " [" + flags.joined(separator: ", ") + "]"
        return "\(contact.name) (\(contact.id)), \(contact.role.rawValue)\(suffix)"
    }

    static func notification(_ notification: LifeSignalProtocol.Notification) -> String {
        "\(notification.isRead ? " " : "*") \(time(notification.timestamp))  \(notification.title): "
            + "\(notification.message)  (\(notification.id))"
    }

    static func device(_ device: DeviceInfo) -> String {
        var parts = [device.device, device.online ? "online" : "offline"]
        if let platform = device.platform { parts.append(platform) }
        parts.append(device.hasToken ? "push token" : "no push token")
        if let seen = device.lastSeenAt { parts.append("last seen \(time(seen))") }
        return parts.joined(separator: "  ")
    }

    static func event(_ event: ClientEvent) -> String {
        switch event {
        case .connected(let hello):
            return "connected: \(hello.user.name), seq \(hello.lastSeq)"
        case .snapshot(let snapshot):
            let unread = snapshot.unreadCount
            return "snapshot at seq \(snapshot.seq): \(snapshot.user.name) (\(snapshot.user.id)), "
                + "\(snapshot.contacts.count) contact(s), \(snapshot.notifications.count) notification(s), "
                + "\(unread) unread"
        case .event(let seq, let name, let data):
            return "#\(seq) \(name): \(eventSummary(name, data))"
        case .disconnected(let error, let willReconnect):
            let reason = error.map { "\($0)" } ?? "closed"
            return "disconnected: \(reason)" + (willReconnect ? "; reconnecting" : "")
        }
    }

    private static func eventSummary(_ name: String, _ data: JSONValue) -> String {
        let object = data.objectValue ?? [:]
        switch name {
        case EventName.userUpdated:
            if let user = object["user"].flatMap({ try? User(json: $0) }) {
                return "\(user.name), phone \(user.phone ?? "-"), every \(duration(seconds: user.checkInIntervalSec))"
                    + (user.alert != nil ? ", ALERT" : "") + (user.isNonResponsive ? ", NON-RESPONSIVE" : "")
            }
        case EventName.contactUpdated:
            if let contact = object["contact"].flatMap({ try? Contact(json: $0) }) { return self.contact(contact) }
        case EventName.notificationAdded, EventName.notificationUpdated:
            if let notification = object["notification"].flatMap({ try? LifeSignalProtocol.Notification(json: $0) }) {
                return self.notification(notification)
            }
        case EventName.contactRemoved:
            if let id = object["contactId"]?.stringValue { return id }
        case EventName.notificationDeleted:
            if let id = object["id"]?.stringValue { return id }
        case EventName.notificationsReadAll:
            if let count = object["count"]?.intValue { return "\(count) marked read" }
        default:
            break
        }
        return String(decoding: data.serialized(), as: UTF8.self)
    }

    static func state(_ state: DeviceState) -> String {
        var lines = ["seq \(state.lastSeq)", user(state.user)]
        lines.append("contacts (\(state.contacts.count)):")
        lines += state.sortedContacts.map { "  " + contact($0) }
        lines.append("notifications (\(state.notifications.count), \(state.unreadCount) unread):")
        lines += state.notifications.map { "  " + notification($0) }
        return lines.joined(separator: "\n")
    }

    /// "1d", "2h30m", "90s".
    static func duration(seconds: Int64) -> String {
        if seconds % 86_400 == 0 { return "\(seconds / 86_400)d" }
        if seconds % 3_600 == 0 { return "\(seconds / 3_600)h" }
        if seconds % 60 == 0 { return "\(seconds / 60)m" }
        return "\(seconds)s"
    }

    /// UTC, to the second: "2025-11-22 05:13:20Z".
    static func time(_ milliseconds: Int64) -> String {
        var seconds = time_t(milliseconds / 1000)
        var parts = tm()
        guard gmtime_r(&seconds, &parts) != nil else { return "\(milliseconds)" }
        func pad(_ value: Int32) -> String { value < 10 ? "0\(value)" : "\(value)" }
        return "\(parts.tm_year + 1900)-\(pad(parts.tm_mon + 1))-\(pad(parts.tm_mday)) "
            + "\(pad(parts.tm_hour)):\(pad(parts.tm_min)):\(pad(parts.tm_sec))Z"
    }
}
