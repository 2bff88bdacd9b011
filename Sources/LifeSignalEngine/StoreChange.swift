import LifeSignalProtocol
import LifeSignalPush
import LifeSignalRules

/// One durable change a request makes. A request's changes are applied together,
/// in one savepoint of one group-commit transaction, or not at all.
public enum StoreChange: Sendable {
    case createUser(User, tokenHash: [UInt8])
    /// Rewrites the user's profile, check-in and alert fields (never the credential).
    case updateUser(User)
    case upsertDevice(DeviceRecord)
    /// Forgets a device, its token with it (`maxStoredDevices`).
    case deleteDevice(DeviceKey)
    /// A token is one phone's address: it moves to the device `to` (with its platform, when one
    /// is named), and whoever held it before loses it. A device not stored yet is stored (never
    /// seen), so a token is kept even if the hello's record of its device was not.
    case movePushToken(token: String, to: DeviceKey, platform: String?)
    /// The device holds no push token from now; with `ifToken`, only while it still holds that
    /// one (a rejected token: the device may have registered another since).
    case clearPushToken(DeviceKey, ifToken: String?)
    /// `body` is the event without its length prefix (usually a slice of the frame sent to devices).
    case appendEvent(userID: String, seq: Int64, body: ArraySlice<UInt8>)
    /// Drops events at or below `throughSeq` (retention).
    case pruneEvents(userID: String, throughSeq: Int64)
    /// One side of a relationship; a request always writes both sides. SQLite keeps both in one
    /// row (`RelationshipRow`), the cluster's PostgreSQL a row per side.
    case upsertContact(ContactRecord)
    case deleteContact(userID: String, contactID: String)
    case insertNotification(userID: String, Notification)
    /// Deletes all but the user's newest `keepNewest` notifications, and the pushes recorded for
    /// them (`notificationHistory`).
    case pruneNotifications(userID: String, keepNewest: Int)
    case setNotificationRead(id: String)
    case markAllNotificationsRead(userID: String)
    case deleteNotification(id: String)
    /// An FCM HTTP v1 message handed to the push gateway, recorded with the notification (§7).
    case recordPush(PushMessage)
    /// What a request with an `opId` came to (§12), in the same transaction as its effects.
    case keepOutcome(userID: String, KeptOutcome)
    /// Forgets the user's kept outcomes past both bounds: not among the newest `keepNewest`, and
    /// kept before `keptBefore`.
    case pruneKeptOutcomes(userID: String, keepNewest: Int, keptBefore: Int64)
    /// Everything of the user: document (and with it credential, QR code, deadline),
    /// relationships, devices, device credentials, link codes, notifications, events, recorded
    /// pushes, kept outcomes.
    case eraseUser(userID: String)
    /// A device's own credential (§12), replacing one it had.
    case grantDeviceCredential(DeviceCredential)
    /// The device's credential goes, and the device with it (its push token too).
    case revokeDevice(DeviceKey)
    case createLinkCode(LinkCode)
    /// Spends the user's code, valid at `now`: the commit fails with `LinkCodeNotValid` (and
    /// changes nothing) if it is unknown, someone else's, spent or expired.
    case spendLinkCode(code: String, userID: String, now: Int64)
    /// Forgets codes that expired before `now`.
    case pruneLinkCodes(now: Int64)
}

extension StoreChange {
    /// The store's form of a change the rules made.
    package init(_ change: RuleChange) {
        switch change {
        case .updateUser(let user): self = .updateUser(user)
        case .upsertContact(let record): self = .upsertContact(record)
        case .deleteContact(let userID, let contactID): self = .deleteContact(userID: userID, contactID: contactID)
        case .setNotificationRead(let id): self = .setNotificationRead(id: id)
        case .markAllNotificationsRead(let userID): self = .markAllNotificationsRead(userID: userID)
        case .deleteNotification(let id): self = .deleteNotification(id: id)
        case .eraseUser(let userID): self = .eraseUser(userID: userID)
        case .revokeDevice(let userID, let deviceID): self = .revokeDevice(DeviceKey(userID: userID, deviceID: deviceID))
        case .spendLinkCode(let code, let userID, let now): self = .spendLinkCode(code: code, userID: userID, now: now)
        case .grantDeviceCredential(let userID, let deviceID, let tokenHash, let linkedAt):
            self = .grantDeviceCredential(DeviceCredential(key: DeviceKey(userID: userID, deviceID: deviceID),
                                                           tokenHash: tokenHash, linkedAt: linkedAt))
        case .movePushToken(let token, let userID, let deviceID, let platform):
            self = .movePushToken(token: token, to: DeviceKey(userID: userID, deviceID: deviceID), platform: platform)
        case .clearPushToken(let userID, let deviceID):
            self = .clearPushToken(DeviceKey(userID: userID, deviceID: deviceID), ifToken: nil)
        }
    }
}

/// (user, device): the identity of a device.
public struct DeviceKey: Hashable, Sendable {
    public var userID: String
    public var deviceID: String
    public init(userID: String, deviceID: String) {
        self.userID = userID
        self.deviceID = deviceID
    }
}

/// What the broker knows of one device of a user, online or not.
public struct DeviceRecord: Sendable, Equatable {
    public var key: DeviceKey
    public var platform: String?
    public var pushToken: String?
    public var lastSeenAt: Int64?

    public init(key: DeviceKey, platform: String?, pushToken: String?, lastSeenAt: Int64?) {
        self.key = key
        self.platform = platform
        self.pushToken = pushToken
        self.lastSeenAt = lastSeenAt
    }
}
