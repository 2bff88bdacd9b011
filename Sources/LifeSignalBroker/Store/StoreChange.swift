import LifeSignalProtocol

/// One durable change a request makes. A request's changes are applied together,
/// in one savepoint of one group-commit transaction, or not at all.
public enum StoreChange: Sendable {
    case createUser(User, tokenHash: [UInt8])
    /// Rewrites the user's profile, check-in and alert fields (never the credential).
    case updateUser(User)
    case upsertDevice(DeviceRecord)
    /// A token is unique: whoever held it before loses it when it moves to `owner`.
    case movePushToken(token: String, owner: DeviceKey)
    case appendEvent(userID: String, seq: Int64, body: [UInt8])
    /// Drops events at or below `throughSeq` (retention).
    case pruneEvents(userID: String, throughSeq: Int64)
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

/// Events to read back inside the write transaction, after the writes before it:
/// `(afterSeq, throughSeq]` of one user. Used for `hello … resume`.
public struct CatchUpRead: Sendable {
    public var userID: String
    public var afterSeq: Int64
    public var throughSeq: Int64
    public init(userID: String, afterSeq: Int64, throughSeq: Int64) {
        self.userID = userID
        self.afterSeq = afterSeq
        self.throughSeq = throughSeq
    }
}

/// Everything one request asks of the store.
public struct StoreWrite: Sendable {
    public var changes: [StoreChange]
    public var catchUp: CatchUpRead?
    public init(changes: [StoreChange], catchUp: CatchUpRead? = nil) {
        self.changes = changes
        self.catchUp = catchUp
    }
}

/// The outcome of a committed `StoreWrite`.
public struct StoreWriteResult: Sendable {
    /// Event bodies in seq order, or nil when some of them are no longer retained.
    public var catchUpEvents: [[UInt8]]?
    public init(catchUpEvents: [[UInt8]]? = nil) { self.catchUpEvents = catchUpEvents }
}

/// A user as loaded from the store: the hot state a session starts from.
public struct StoredUser: Sendable {
    public var user: User
    public var tokenHash: [UInt8]
    public var devices: [DeviceRecord]
    public var lastSeq: Int64
    /// Oldest seq still in the log (lastSeq + 1 when the log is empty).
    public var oldestRetainedSeq: Int64
    public init(user: User, tokenHash: [UInt8], devices: [DeviceRecord], lastSeq: Int64, oldestRetainedSeq: Int64) {
        self.user = user
        self.tokenHash = tokenHash
        self.devices = devices
        self.lastSeq = lastSeq
        self.oldestRetainedSeq = oldestRetainedSeq
    }
}
