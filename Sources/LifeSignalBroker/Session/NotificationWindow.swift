import LifeSignalProtocol

/// The part of a user's notification history kept in memory: the newest ones in full, and
/// exact counts of all of them. Older notifications stay in the store and are read on demand.
struct NotificationWindow: Sendable {
    /// How many of the newest notifications are kept (the default page size of `notifications.list`).
    static let capacity = 100

    /// Newest first.
    private(set) var newest: [Notification]
    private(set) var totalCount: Int
    private(set) var unreadCount: Int

    init(newest: [Notification], totalCount: Int, unreadCount: Int) {
        self.newest = Array(newest.prefix(Self.capacity))
        self.totalCount = totalCount
        self.unreadCount = unreadCount
    }

    /// True when every notification of the user is in memory.
    var isComplete: Bool { newest.count == totalCount }

    func notification(id: String) -> Notification? { newest.first { $0.id == id } }

    mutating func add(_ notification: Notification) {
        newest.insert(notification, at: 0)
        if newest.count > Self.capacity { newest.removeLast() }
        totalCount += 1
        if !notification.isRead { unreadCount += 1 }
    }

    /// Marks one read; `wasUnread` says whether the count changes (it may be older than the window).
    mutating func markRead(id: String, wasUnread: Bool) {
        if let index = newest.firstIndex(where: { $0.id == id }) { newest[index].isRead = true }
        if wasUnread { unreadCount -= 1 }
    }

    mutating func markAllRead() {
        for index in newest.indices { newest[index].isRead = true }
        unreadCount = 0
    }

    mutating func remove(id: String, wasUnread: Bool) {
        newest.removeAll { $0.id == id }
        totalCount -= 1
        if wasUnread { unreadCount -= 1 }
    }

    /// A page answered from memory, or nil when it reaches past the window.
    func page(before beforeID: String?, limit: Int) -> [Notification]? {
        var start = 0
        if let beforeID {
            guard let index = newest.firstIndex(where: { $0.id == beforeID }) else { return nil }
            start = index + 1
        }
        let end = start + limit
        if end <= newest.count { return Array(newest[start..<end]) }
        return isComplete ? Array(newest[start...]) : nil
    }
}
