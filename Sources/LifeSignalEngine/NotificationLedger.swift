import DequeModule

/// A user's stored notifications in the order they were stored, oldest first, each as a
/// fingerprint of its id and whether it is unread, so that the oldest can be pruned
/// (`notificationHistory`, §10) with the total and unread counts kept exact and nothing read
/// back from the store: memory knows the whole of only the newest 100 (`NotificationWindow`).
///
/// 8 bytes an entry and at most `limit + pruneStep` entries. With no limit (0) only the counts
/// are kept: nothing is pruned then, so the order is never needed.
package struct NotificationLedger: Sendable {
    package struct Entry: Sendable, Equatable {
        /// The id's fingerprint above, whether it is unread in the lowest bit.
        private let bits: UInt64

        package init(id: String, isUnread: Bool) {
            self.init(fingerprint: Self.fingerprint(of: id), isUnread: isUnread)
        }

        private init(fingerprint: UInt64, isUnread: Bool) {
            bits = fingerprint << 1 | (isUnread ? 1 : 0)
        }

        package var isUnread: Bool { bits & 1 == 1 }
        package var read: Entry { Entry(fingerprint: fingerprint, isUnread: false) }
        package func isEntry(of fingerprint: UInt64) -> Bool { self.fingerprint == fingerprint }
        private var fingerprint: UInt64 { bits >> 1 }

        /// 63 bits of FNV-1a: among the 1,000 or so ids of one user a collision is about as likely
        /// as guessing a token (ids carry 128 random bits).
        package static func fingerprint(of id: String) -> UInt64 {
            var hash: UInt64 = 0xcbf2_9ce4_8422_2325
            for byte in id.utf8 { hash = (hash ^ UInt64(byte)) &* 0x0000_0100_0000_01b3 }
            return hash >> 1
        }
    }

    /// Newest notifications kept; 0: all of them.
    package let limit: Int
    /// Prunes happen in steps, so that the history costs one DELETE per step (as event
    /// retention does), not one per notification.
    package var pruneStep: Int { min(64, limit) }
    private var entries: Deque<Entry> = []
    package private(set) var count: Int
    package private(set) var unreadCount: Int

    /// `stored`: every stored notification, oldest first.
    package init(limit: Int, stored: [Entry]) {
        self.limit = limit
        count = stored.count
        unreadCount = stored.reduce(0) { $0 + ($1.isUnread ? 1 : 0) }
        if limit > 0 { entries = Deque(stored) }
    }

    package mutating func add(id: String, isUnread: Bool) {
        count += 1
        if isUnread { unreadCount += 1 }
        if limit > 0 { entries.append(Entry(id: id, isUnread: isUnread)) }
    }

    /// `wasUnread` says whether the unread count changes (the caller knows; the ledger may not).
    package mutating func markRead(id: String, wasUnread: Bool) {
        if wasUnread { unreadCount -= 1 }
        if let index = index(of: id) { entries[index] = entries[index].read }
    }

    package mutating func markAllRead() {
        unreadCount = 0
        for index in entries.indices where entries[index].isUnread { entries[index] = entries[index].read }
    }

    package mutating func remove(id: String, wasUnread: Bool) {
        count -= 1
        if wasUnread { unreadCount -= 1 }
        if let index = index(of: id) { entries.remove(at: index) }
    }

    /// Entries past the newest `limit`: still stored until the next prune step, but no longer
    /// part of the history (§10), so no read shows them, as on a cluster (`historyFloor`).
    package var hiddenCount: Int { limit > 0 ? max(0, entries.count - limit) : 0 }

    /// Unread notifications among the newest `limit`: what the user is told.
    package var visibleUnreadCount: Int {
        unreadCount - entries.prefix(hiddenCount).reduce(0) { $0 + ($1.isUnread ? 1 : 0) }
    }

    /// Whether `id` is one of the newest `limit` (with no limit: not known here, so true).
    package func isVisible(id: String) -> Bool {
        guard limit > 0 else { return true }
        return index(of: id).map { $0 >= hiddenCount } ?? false
    }

    /// Whether `id` is still stored: false once pruned or deleted. Always true with no limit,
    /// where the ledger does not know (and nothing is pruned).
    package func isStored(id: String) -> Bool { limit == 0 || index(of: id) != nil }

    /// Forgets the oldest beyond `limit` once a step's worth has piled up; true when it did, and
    /// the store must then keep only the newest `limit` (`StoreChange.pruneNotifications`).
    package mutating func pruneIfDue() -> Bool {
        guard limit > 0, entries.count >= limit + pruneStep else { return false }
        let pruned = entries.count - limit
        for entry in entries.prefix(pruned) where entry.isUnread { unreadCount -= 1 }
        entries.removeFirst(pruned)
        count -= pruned
        return true
    }

    /// Searched from the newest end: recent notifications are the ones read and deleted most.
    private func index(of id: String) -> Int? {
        let fingerprint = Entry.fingerprint(of: id)
        return entries.lastIndex { $0.isEntry(of: fingerprint) }
    }
}
