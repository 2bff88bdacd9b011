import LifeSignalProtocol

/// What one device knows of its user, kept current by a snapshot and then each event
/// (PROTOCOL.md §3, §6): applying the catch-up and the live events yields the broker's state.
///
/// `lastSeq` is the seq of the last snapshot or event applied; `hello` resumes from it.
public struct DeviceState: Sendable, Equatable {
    public var user: User
    /// By contact (other user) id.
    public var contacts: [String: Contact]
    /// Newest first.
    /// The newest notifications, newest first: at most `notificationLimit`, like the broker's
    /// snapshot (older ones are a `notifications.list` away); `unreadCount` counts them all.
    public var notifications: [LifeSignalProtocol.Notification]
    public static let notificationLimit = 100
    public var unreadCount: Int
    public var lastSeq: Int64

    public init(
        user: User,
        contacts: [String: Contact] = [:],
        notifications: [LifeSignalProtocol.Notification] = [],
        unreadCount: Int = 0,
        lastSeq: Int64
    ) {
        self.user = user
        self.contacts = contacts
        self.notifications = notifications
        self.unreadCount = unreadCount
        self.lastSeq = lastSeq
    }

    /// The state a snapshot describes; applying a snapshot replaces everything.
    public init(snapshot: Snapshot) {
        var contacts: [String: Contact] = [:]
        contacts.reserveCapacity(snapshot.contacts.count)
        for contact in snapshot.contacts { contacts[contact.id] = contact }
        self.init(
            user: snapshot.user,
            contacts: contacts,
            notifications: snapshot.notifications,
            unreadCount: snapshot.unreadCount,
            lastSeq: snapshot.seq)
    }

    /// Contacts sorted by name, then id, for display.
    public var sortedContacts: [Contact] {
        contacts.values.sorted { ($0.name, $0.id) < ($1.name, $1.id) }
    }
}
