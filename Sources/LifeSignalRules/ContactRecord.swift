import LifeSignalProtocol

/// One user's stored view of a contact: the roles and the pings between them.
public struct ContactRecord: Sendable, Equatable {
    public var userID: String
    public var contactID: String
    /// The contact is the user's responder (watches over them).
    public var isResponder: Bool
    /// The contact is the user's dependent (the user watches over them).
    public var isDependent: Bool
    public var addedAt: Int64
    /// A ping from the contact, waiting for the user's response.
    public var incomingPing: PendingPing?
    /// The user's ping to the contact, waiting for theirs.
    public var outgoingPing: PendingPing?

    public init(userID: String, contactID: String, isResponder: Bool, isDependent: Bool, addedAt: Int64,
                incomingPing: PendingPing? = nil, outgoingPing: PendingPing? = nil) {
        self.userID = userID
        self.contactID = contactID
        self.isResponder = isResponder
        self.isDependent = isDependent
        self.addedAt = addedAt
        self.incomingPing = incomingPing
        self.outgoingPing = outgoingPing
    }

    /// The other side of the same relationship: the contact's view of the user.
    public var mirrored: ContactRecord {
        ContactRecord(userID: contactID, contactID: userID, isResponder: isDependent, isDependent: isResponder,
                      addedAt: addedAt, incomingPing: outgoingPing, outgoingPing: incomingPing)
    }
}

public struct PendingPing: Sendable, Equatable {
    public var id: String
    public var sentAt: Int64
    public init(id: String, sentAt: Int64) {
        self.id = id
        self.sentAt = sentAt
    }
}

/// What a user's contacts see of them (PROTOCOL §4: the mirrored check-in and alert fields).
public struct ContactMirror: Sendable, Equatable {
    public var name: String
    public var lastCheckInAt: Int64?
    public var checkInDeadline: Int64?
    public var isNonResponsive: Bool
    public var alert: AlertInfo?

    public init(of user: User) {
        name = user.name
        lastCheckInAt = user.lastCheckInAt
        checkInDeadline = user.checkInDeadline
        isNonResponsive = user.isNonResponsive
        alert = user.alert
    }

    public init(name: String, lastCheckInAt: Int64?, checkInDeadline: Int64?, isNonResponsive: Bool,
                alert: AlertInfo?) {
        self.name = name
        self.lastCheckInAt = lastCheckInAt
        self.checkInDeadline = checkInDeadline
        self.isNonResponsive = isNonResponsive
        self.alert = alert
    }
}
