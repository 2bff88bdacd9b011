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
    /// A token is unique: whoever held it before loses it when it moves to `owner`.
    case movePushToken(token: String, owner: DeviceKey)
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
}

extension StoreChange {
    /// The store's form of a change the rules made.
    init(_ change: RuleChange) {
        switch change {
        case .updateUser(let user): self = .updateUser(user)
        case .upsertContact(let record): self = .upsertContact(record)
        case .deleteContact(let userID, let contactID): self = .deleteContact(userID: userID, contactID: contactID)
        case .setNotificationRead(let id): self = .setNotificationRead(id: id)
        case .markAllNotificationsRead(let userID): self = .markAllNotificationsRead(userID: userID)
        case .deleteNotification(let id): self = .deleteNotification(id: id)
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

/// A read that runs in the writer's queue, after every write submitted before it, so it
/// sees exactly what the broker has acknowledged or is about to.
public enum StoreQuery: Sendable {
    /// Event bodies of `(afterSeq, throughSeq]`, for `hello … resume`, if their frames fit in
    /// `maxBytes`.
    case events(userID: String, afterSeq: Int64, throughSeq: Int64, maxBytes: Int)
    case user(id: String)
    /// Every device of the user, online or not.
    case devices(userID: String)
    /// The user whose current QR code this is, with their name (`contacts.add`, `qr.lookup`).
    case qrCodeOwner(String)
    /// Newest first; `beforeID` is exclusive. Nil in the result when `beforeID` is not the user's.
    /// Only the user's newest `history` are read (§10; 0: all), pruned or not.
    case notifications(userID: String, beforeID: String?, limit: Int, history: Int)
    case notification(userID: String, id: String, history: Int)
    /// The pushes recorded for the user, oldest first.
    case pushes(userID: String)
    /// Every user with a deadline who is not yet marked non-responsive (§8).
    case pendingDeadlines
}

public enum StoreQueryResult: Sendable {
    /// Nil when some of the events are no longer retained, or they would not fit.
    case events([[UInt8]]?)
    case user(StoredUser?)
    case devices([DeviceRecord])
    case qrCodeOwner(QRCodeOwner?)
    case notifications([Notification]?)
    case notification(Notification?)
    case pushes([PushMessage])
    case deadlines([(userID: String, deadline: Int64)])
}

/// Everything one request asks of the store.
public struct StoreWrite: Sendable {
    public var changes: [StoreChange]
    public var query: StoreQuery?
    /// Rewrites the store's one probe row: a commit that needs room, as every real write does
    /// (readiness; an empty transaction commits on a full disk).
    var isReadinessProbe = false
    public init(changes: [StoreChange], query: StoreQuery? = nil) {
        self.changes = changes
        self.query = query
    }
}

/// The outcome of a committed `StoreWrite`.
public struct StoreWriteResult: Sendable {
    public var queryResult: StoreQueryResult?
    public init(queryResult: StoreQueryResult? = nil) { self.queryResult = queryResult }
}

/// A user as loaded from the store: the hot state a session starts from.
public struct StoredUser: Sendable {
    public var user: User
    public var tokenHash: [UInt8]
    public var devices: [DeviceRecord]
    public var lastSeq: Int64
    /// Oldest seq still in the log (lastSeq + 1 when the log is empty).
    public var oldestRetainedSeq: Int64
    /// Each contact with what the user sees of them now.
    public var contacts: [(record: ContactRecord, mirror: ContactMirror)]
    /// The newest notifications, newest first (at most `NotificationWindow.capacity`).
    public var recentNotifications: [Notification]
    public var notificationCount: Int
    public var unreadCount: Int
    /// Every stored notification, oldest first, for pruning the history with exact counts.
    var notificationLedger: [NotificationLedger.Entry]
}
