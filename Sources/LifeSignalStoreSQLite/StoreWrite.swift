import LifeSignalEngine
import LifeSignalProtocol
import LifeSignalPush
import LifeSignalRules

/// A read that runs in the writer's queue, after every write submitted before it, so it
/// sees exactly what the broker has acknowledged or is about to.
public enum StoreQuery: Sendable {
    /// Event bodies of `(afterSeq, throughSeq]`, for `hello … resume`, if their frames fit in
    /// `maxBytes`.
    case events(userID: String, afterSeq: Int64, throughSeq: Int64, maxBytes: Int)
    case user(id: String)
    /// The accounts of those of `ids` who exist: each user with their side of every relationship.
    case accounts([String])
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
    /// What the user's request with this `opId` came to (§12).
    case keptOutcome(userID: String, opID: String)
    /// Every outcome kept for the user, oldest first.
    case keptOutcomes(userID: String)
    /// The user's device credentials (§12), by device id.
    case deviceCredentials(userID: String)
    case linkCode(String)
}

public enum StoreQueryResult: Sendable {
    /// Nil when some of the events are no longer retained, or they would not fit.
    case events([[UInt8]]?)
    case user(StoredUser?)
    case devices([DeviceRecord])
    case qrCodeOwner(QRCodeOwner?)
    case notifications([LifeSignalProtocol.Notification]?)
    case notification(LifeSignalProtocol.Notification?)
    case pushes([PushMessage])
    case deadlines([(userID: String, deadline: Int64)])
    case accounts([Account])
    case keptOutcome(KeptOutcome?)
    case keptOutcomes([KeptOutcome])
    case deviceCredentials([DeviceCredential])
    case linkCode(LinkCode?)
}

/// Everything one request asks of the store.
public struct StoreWrite: Sendable {
    public var changes: [StoreChange]
    public var query: StoreQuery?
    /// Rewrites the store's one probe row: a commit that needs room, as every real write does
    /// (readiness; an empty transaction commits on a full disk).
    package var isReadinessProbe = false
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
    /// The newest notifications, newest first (at most `Validate.notificationPage`: a session's window).
    public var recentNotifications: [LifeSignalProtocol.Notification]
    public var notificationCount: Int
    public var unreadCount: Int
    /// Every stored notification, oldest first, for pruning the history with exact counts.
    package var notificationLedger: [NotificationLedger.Entry]
    /// The `opId`s kept for the user (§12), oldest first.
    public var keptOperations: [KeptOperation]
    /// Each device's own credential (§12).
    public var deviceCredentials: [DeviceCredential] = []
}
