import LifeSignalProtocol

/// A user's link to one contact: the stored roles and pings, and the contact's own document as
/// last known here.
struct ContactLink: Sendable {
    var record: ContactRecord
    /// The contact's mirrored fields as the store had them when this link was read, rewritten
    /// whenever the contact's document changes while both are loaded. Only a fallback: a view is
    /// made from the contact's live document while it is loaded (`UserSession.view(of:)`).
    var lastKnown: ContactMirror

    var role: ContactRole { ContactRole(isResponder: record.isResponder, isDependent: record.isDependent) }

    /// The contact as this user sees them when the contact's own document shows `mirror` (§4):
    /// check-in and alert fields only for a dependent.
    func document(showing mirror: ContactMirror) -> Contact {
        let watched = record.isDependent
        return Contact(
            id: record.contactID, name: mirror.name, isResponder: record.isResponder,
            isDependent: record.isDependent, addedAt: record.addedAt,
            incomingPingAt: record.incomingPing?.sentAt, outgoingPingAt: record.outgoingPing?.sentAt,
            lastCheckInAt: watched ? mirror.lastCheckInAt : nil,
            checkInDeadline: watched ? mirror.checkInDeadline : nil,
            isNonResponsive: watched && mirror.isNonResponsive,
            alert: watched ? mirror.alert : nil)
    }
}
