import LifeSignalProtocol

/// A user's link to one contact: the stored roles and pings, and what the contact currently
/// shows of themselves.
struct ContactLink: Sendable {
    var record: ContactRecord
    var mirror: ContactMirror

    var role: ContactRole { ContactRole(isResponder: record.isResponder, isDependent: record.isDependent) }

    /// The contact as this user sees them (§4): check-in and alert fields only for a dependent.
    var document: Contact {
        let watched = record.isDependent
        return Contact(
            id: record.contactID, name: mirror.name, isResponder: record.isResponder,
            isDependent: record.isDependent, addedAt: record.addedAt,
            incomingPingAt: record.incomingPing?.sentAt, outgoingPingAt: record.outgoingPing?.sentAt,
            lastCheckInAt: watched ? mirror.lastCheckInAt : nil,
            checkInDeadline: watched ? mirror.checkInDeadline : nil,
            isNonResponsive: watched && mirror.isNonResponsive,
            hasActiveAlert: watched && mirror.hasActiveAlert)
    }
}
