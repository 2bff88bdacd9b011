import LifeSignalProtocol

/// What the rules know of one user: their own document and their side of each relationship.
/// Executors feed these to the rules: from memory (embedded) or from rows read under lock.
public struct Account: Sendable, Equatable {
    public var user: User
    /// This user's side of each relationship, by the other user's id.
    public var contacts: [String: ContactRecord]

    public init(user: User, contacts: [String: ContactRecord]) {
        self.user = user
        self.contacts = contacts
    }

    public var id: String { user.id }

    /// The contacts who watch over this user.
    public var responderIDs: Set<String> { Set(contacts.values.filter(\.isResponder).map(\.contactID)) }
}

extension ContactRecord {
    /// The role the contact has for the user who holds this record.
    public var role: ContactRole { ContactRole(isResponder: isResponder, isDependent: isDependent) }

    /// The contact as its holder sees them when the contact's own document shows `mirror` (§4):
    /// check-in and alert fields only for a dependent. Derived here and nowhere else.
    public func view(showing mirror: ContactMirror) -> Contact {
        let watched = isDependent
        return Contact(
            id: contactID, name: mirror.name, isResponder: isResponder, isDependent: isDependent, addedAt: addedAt,
            incomingPingAt: incomingPing?.sentAt, outgoingPingAt: outgoingPing?.sentAt,
            lastCheckInAt: watched ? mirror.lastCheckInAt : nil,
            checkInDeadline: watched ? mirror.checkInDeadline : nil,
            isNonResponsive: watched && mirror.isNonResponsive,
            alert: watched ? mirror.alert : nil)
    }
}
