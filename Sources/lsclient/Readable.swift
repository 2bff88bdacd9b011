import LifeSignalClient
import LifeSignalProtocol
import LifeSignalVersion

/// Text for people (the default output).
enum Readable {
    static func user(_ user: User, clock: RelativeTime) -> String {
        var checkIn = "every \(duration(seconds: user.checkInIntervalSec))"
        checkIn += user.lastCheckInAt.map { ", last \(time($0)) (\(clock.ago($0)))" } ?? ", never yet"
        checkIn += user.checkInDeadline.map { ", due \(time($0)) (\(clock.until($0)))" } ?? ""
        var lines = [
            "\(user.name) (\(user.id))",
            "  phone:       \(user.phone ?? "-")",
            "  QR code:     \(user.qrCode)",
            "  check-in:    \(checkIn)",
            "  push:        \(user.preferences.push ? "on" : "off")"
                + (user.preferences.mutedTypes.isEmpty
                    ? "" : ", muted: " + user.preferences.mutedTypes.map(\.rawValue).joined(separator: ",")),
        ]
        if user.isNonResponsive { lines.append("  " + Style.alarm("NON-RESPONSIVE: missed a check-in")) }
        if let alert = user.alert { lines.append("  " + self.alert(alert, clock: clock)) }
        lines.append("  created:     \(time(user.createdAt))")
        return lines.joined(separator: "\n")
    }

    /// `ALERT since 3m ago: "message"`, in bold red on a terminal.
    static func alert(_ alert: AlertInfo, clock: RelativeTime) -> String {
        Style.alarm("ALERT since \(clock.ago(alert.startedAt))" + (alert.message.map { ": \"\($0)\"" } ?? ""))
    }

    /// `Bob — your dependent; ALERT since 1m ago: "fell"; checked in 2h ago, due in 22h`, with the id
    /// after the name where the reader may need it for a command.
    static func contact(_ contact: Contact, clock: RelativeTime, showID: Bool = false) -> String {
        var items = [role(contact.role)]
        if let at = contact.incomingPingAt { items.append("pinged you (\(clock.ago(at)))") }
        if let at = contact.outgoingPingAt { items.append("you pinged (\(clock.ago(at))), no answer yet") }
        // The broker fills these only for a dependent (PROTOCOL.md §4): elsewhere they say nothing.
        if contact.isDependent {
            if let alert = contact.alert { items.append(self.alert(alert, clock: clock)) }
            if contact.isNonResponsive { items.append(Style.alarm("MISSED CHECK-IN")) }
            var checkIn = contact.lastCheckInAt.map { "checked in \(clock.ago($0))" } ?? "never checked in"
            if let deadline = contact.checkInDeadline { checkIn += ", due \(clock.until(deadline))" }
            items.append(checkIn)
        }
        let name = showID ? "\(contact.name) (\(contact.id))" : contact.name
        return "\(name) — " + items.joined(separator: "; ")
    }

    /// What a role means from this user's side.
    static func role(_ role: ContactRole) -> String {
        switch role {
        case .both: return "your responder and dependent"
        case .responder: return "your responder"
        case .dependent: return "your dependent"
        case .none: return "no role"
        }
    }

    /// `● ping  Ping — Bob pinged you.  (just now)`: ● unread, ○ read; the id last, for `read ID`.
    /// An unread alert or missed check-in is in bold red on a terminal.
    static func notification(
        _ notification: LifeSignalProtocol.Notification, clock: RelativeTime, showID: Bool = false
    ) -> String {
        let line = "\(notification.isRead ? "○" : "●") " + notificationBody(notification, clock: clock)
        let urgent = !notification.isRead && [.alert, .nonResponsive].contains(notification.type)
        return (urgent ? Style.alarm(line) : line) + (showID ? "  \(notification.id)" : "")
    }

    /// The notification without its read marker: `ping  Ping — Bob pinged you.  (just now)`; an
    /// alert's own words follow the broker's sentence: `… emergency alert. "fell on the stairs"`.
    static func notificationBody(_ notification: LifeSignalProtocol.Notification, clock: RelativeTime) -> String {
        let alertMessage = notification.type == .alert ? notification.alertData?.message.map { " \"\($0)\"" } : nil
        return "\(notification.type.rawValue)  \(notification.title) — \(notification.message)\(alertMessage ?? "")  "
            + "(\(clock.ago(notification.timestamp)))"
    }

    /// One line per device, in aligned columns:
    /// `phone   online   ios  push token  linked 2026-11-28 19:40  last seen …`.
    static func devices(_ devices: [DeviceInfo]) -> [String] {
        TextColumns.aligned(devices.map { device in
            [device.device, device.online ? "online" : "offline", device.platform ?? "-",
             device.hasToken ? "push token" : "no push token",
             device.linkedAt.map { "linked \(time($0))" } ?? "account token",
             device.lastSeenAt.map { "last seen \(time($0))" } ?? ""]
        })
    }

    static func state(_ state: DeviceState, clock: RelativeTime) -> String {
        var lines = ["seq \(state.lastSeq) · digest \(state.digest)", user(state.user, clock: clock)]
        lines.append("contacts (\(state.contacts.count)):")
        lines += state.sortedContacts.map { "  " + contact($0, clock: clock, showID: true) }
        lines.append("notifications (\(state.notifications.count), \(state.unreadCount) unread):")
        lines += state.notifications.map { "  " + notification($0, clock: clock, showID: true) }
        return lines.joined(separator: "\n")
    }

    /// "1 contact", "2 contacts".
    static func count(_ count: Int, _ noun: String) -> String {
        "\(count) \(noun)\(count == 1 ? "" : "s")"
    }
}
