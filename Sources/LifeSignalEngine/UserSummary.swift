/// What `lsbroker users` shows of one user, read from either store: enough to answer "is this
/// account set up and reachable?" without a device. Never a token, a credential or a QR code.
public struct UserSummary: Sendable, Equatable {
    public struct Device: Sendable, Equatable {
        public var id: String
        public var platform: String?
        /// Whether a push token is stored; the token itself is not read.
        public var hasToken: Bool
        public var lastSeenAt: Int64?
        public var online: Online

        public init(id: String, platform: String?, hasToken: Bool, lastSeenAt: Int64?, online: Online) {
            self.id = id
            self.platform = platform
            self.hasToken = hasToken
            self.lastSeenAt = lastSeenAt
            self.online = online
        }
    }

    /// Whether a device is connected now. The embedded store does not know (only the running
    /// broker does); a cluster's `presence` table does, and says which broker holds it.
    public enum Online: Sendable, Equatable {
        case unknown
        case offline
        /// `broker`: the cluster broker holding its connection (nil for the embedded broker).
        case online(broker: String?)
    }

    public var id: String
    public var name: String
    public var createdAt: Int64
    /// The last seq given out: the user's event head.
    public var seq: Int64
    /// Contacts who are this user's responders, and contacts who are this user's dependents.
    public var responders: Int
    public var dependents: Int
    public var notifications: Int
    public var unread: Int
    /// Ordered by device id.
    public var devices: [Device]

    public init(id: String, name: String, createdAt: Int64, seq: Int64, responders: Int, dependents: Int,
                notifications: Int, unread: Int, devices: [Device]) {
        self.id = id
        self.name = name
        self.createdAt = createdAt
        self.seq = seq
        self.responders = responders
        self.dependents = dependents
        self.notifications = notifications
        self.unread = unread
        self.devices = devices
    }
}
