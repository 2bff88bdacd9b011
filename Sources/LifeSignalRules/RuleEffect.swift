import LifeSignalProtocol

/// One thing a rule decided, in the order it decided it. An executor stores every `store` change
/// in the request's transaction, gives each `event` the user's next seq, and stores, announces
/// and pushes each `notification`.
public enum RuleEffect: Sendable {
    case store(RuleChange)
    case event(userID: String, name: String, data: EventData)
    case notification(userID: String, Notification)

    /// `event` to `userID`'s devices, as its name and data.
    static func event(userID: String, _ event: Event) -> RuleEffect {
        .event(userID: userID, name: event.name, data: event.data)
    }
}

/// A durable change the rules make to what a user has: their document, a side of a
/// relationship, or their notifications. Each store writes it in the request's transaction.
public enum RuleChange: Sendable, Equatable {
    /// Rewrites the user's profile, check-in and alert fields (never the credential).
    case updateUser(User)
    /// One side of a relationship; a request always writes both sides.
    case upsertContact(ContactRecord)
    case deleteContact(userID: String, contactID: String)
    case setNotificationRead(id: String)
    case markAllNotificationsRead(userID: String)
    case deleteNotification(id: String)
    /// The user's document and everything of theirs: relationships, devices, notifications,
    /// events, recorded pushes, kept outcomes, deadline (`account.delete`).
    case eraseUser(userID: String)
    /// A device's own credential, push token and stored device (`device.revoke`, §12).
    case revokeDevice(userID: String, deviceID: String)
    /// The user's link code, valid at `now`, is spent: the step's transaction fails whole if it is
    /// unknown, someone else's, spent or expired (`signin`, §12).
    case spendLinkCode(code: String, userID: String, now: Int64)
    /// A device's own credential: the hash of its token, and when it was linked.
    case grantDeviceCredential(userID: String, deviceID: String, tokenHash: [UInt8], linkedAt: Int64)
    /// The device's push token is `token`, its platform too when one is named; whichever device
    /// held the token loses it, since a token is one phone's address (`device.register`).
    case movePushToken(token: String, userID: String, deviceID: String, platform: String?)
    /// The device has no push token (`device.unregister`).
    case clearPushToken(userID: String, deviceID: String)
}

/// Where the rules take the ids of new pings, alerts and notifications, and new QR codes, from:
/// injected, so that a run with a seeded source can be reproduced.
public protocol IDSource: Sendable {
    /// A new id `prefix_…`, made at `nowMs`.
    func newID(prefix: String, nowMs: Int64) -> String
    /// A new QR code for `contacts.add` (§4), unguessable in production.
    func newQRCode() -> String
}
