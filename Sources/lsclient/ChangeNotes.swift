import LifeSignalClient
import LifeSignalProtocol

/// What an update changed, so that `watch`'s line says why it was sent: "(checked in, ALERT raised)".
enum ChangeNotes {
    /// " (checked in, ALERT raised)", or nothing when no change is known.
    static func note(_ changes: [String]) -> String {
        changes.isEmpty ? "" : " (" + changes.joined(separator: ", ") + ")"
    }

    /// In the user's own document.
    static func changes(from old: User?, to new: User) -> [String] {
        guard let old else { return [] }
        var changes: [String] = []
        if old.name != new.name { changes.append("renamed from \(old.name)") }
        if old.phone != new.phone { changes.append("phone changed") }
        if old.qrCode != new.qrCode { changes.append("new QR code") }
        if old.checkInIntervalSec != new.checkInIntervalSec { changes.append("check-in interval changed") }
        if old.lastCheckInAt != new.lastCheckInAt { changes.append("checked in") }
        if !old.isNonResponsive && new.isNonResponsive { changes.append(Style.alarm("MISSED CHECK-IN")) }
        if old.alert == nil, new.alert != nil { changes.append(Style.alarm("ALERT raised")) }
        if old.alert != nil, new.alert == nil { changes.append("alert cancelled") }
        if old.preferences != new.preferences { changes.append("preferences changed") }
        return changes
    }

    /// In a contact: a new role, a ping, a check-in, an alert.
    static func changes(from old: Contact, to new: Contact) -> [String] {
        var changes: [String] = []
        if old.name != new.name { changes.append("renamed from \(old.name)") }
        if old.role != new.role { changes.append("now " + Readable.role(new.role)) }
        if old.incomingPingAt != new.incomingPingAt {
            changes.append(new.incomingPingAt == nil ? "their ping cleared" : "pinged you")
        }
        if old.outgoingPingAt != new.outgoingPingAt {
            changes.append(new.outgoingPingAt == nil ? "your ping cleared" : "you pinged")
        }
        // These fields are filled only for a dependent: one who just became one did not just check in.
        guard old.isDependent && new.isDependent else { return changes }
        if old.lastCheckInAt != new.lastCheckInAt { changes.append("checked in") }
        if !old.isNonResponsive && new.isNonResponsive { changes.append(Style.alarm("MISSED CHECK-IN")) }
        if !old.hasActiveAlert && new.hasActiveAlert { changes.append(Style.alarm("ALERT raised")) }
        if old.hasActiveAlert && !new.hasActiveAlert { changes.append("alert over") }
        return changes
    }
}
