import LifeSignalEngine
import LifeSignalProtocol

/// The part of a user's notification history kept in memory: the newest ones in full, and
/// exact counts of all of them (the ledger, which also prunes the history). Older notifications
/// stay in the store and are read on demand.
struct NotificationWindow: Sendable {
    /// How many of the newest notifications are kept (the default page size of `notifications.list`).
    static let capacity = Validate.notificationPage

    /// Newest first.
    private(set) var newest: [Notification]
    private(set) var ledger: NotificationLedger
    var totalCount: Int { ledger.count }
    /// Counts only the history a user sees: the newest `notificationHistory` (§10).
    var unreadCount: Int { ledger.visibleUnreadCount }
    /// How many notifications the user sees: those not yet pruned but past the history are not.
    var visibleCount: Int { ledger.count - ledger.hiddenCount }
    /// The newest ones the user sees, newest first (a snapshot's).
    var visibleNewest: ArraySlice<Notification> { newest.prefix(visibleCount) }

    init(newest: [Notification], ledger: NotificationLedger) {
        self.newest = Array(newest.prefix(Self.capacity))
        self.ledger = ledger
    }

    /// True when every notification the user sees is in memory.
    var isComplete: Bool { newest.count >= visibleCount }

    func notification(id: String) -> Notification? { newest.first { $0.id == id } }

    mutating func add(_ notification: Notification) {
        newest.insert(notification, at: 0)
        if newest.count > Self.capacity { newest.removeLast() }
        ledger.add(id: notification.id, isUnread: !notification.isRead)
    }

    /// Marks one read; `wasUnread` says whether the count changes (it may be older than the window).
    mutating func markRead(id: String, wasUnread: Bool) {
        if let index = newest.firstIndex(where: { $0.id == id }) { newest[index].isRead = true }
        ledger.markRead(id: id, wasUnread: wasUnread)
    }

    mutating func markAllRead() {
        for index in newest.indices { newest[index].isRead = true }
        ledger.markAllRead()
    }

    mutating func remove(id: String, wasUnread: Bool) {
        newest.removeAll { $0.id == id }
        ledger.remove(id: id, wasUnread: wasUnread)
    }

    /// Prunes the history once a step is due (true then); the window keeps only what is still stored.
    mutating func pruneIfDue() -> Bool {
        guard ledger.pruneIfDue() else { return false }
        if newest.count > ledger.count { newest.removeLast(newest.count - ledger.count) }
        return true
    }

    /// A page answered from memory, or nil when it reaches past the window.
    func page(before beforeID: String?, limit: Int) -> [Notification]? {
        let visible = visibleNewest
        var start = 0
        if let beforeID {
            guard let index = visible.firstIndex(where: { $0.id == beforeID }) else { return nil }
            start = index + 1
        }
        let end = start + limit
        if end <= visible.count { return Array(visible[start..<end]) }
        return isComplete ? Array(visible[start...]) : nil
    }
}
