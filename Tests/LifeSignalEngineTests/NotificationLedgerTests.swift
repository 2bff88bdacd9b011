import LifeSignalEngine
import Testing

@Suite struct NotificationLedgerTests {
    /// `count` notifications "n0"… oldest first, the ones in `read` read.
    private func ledger(limit: Int, count: Int, read: Set<Int> = []) -> NotificationLedger {
        NotificationLedger(limit: limit, stored: (0..<count).map {
            NotificationLedger.Entry(id: "n\($0)", isUnread: !read.contains($0))
        })
    }

    /// Adds unread "n<index>" for each index, and says whether the last one made a prune due.
    private func add(_ indices: Range<Int>, to ledger: inout NotificationLedger, isUnread: Bool = true) -> [Bool] {
        indices.map { index in
            ledger.add(id: "n\(index)", isUnread: isUnread)
            return ledger.pruneIfDue()
        }
    }

    @Test func pruningKeepsTheNewestAndCountsOnlyWhatIsLeft() {
        var ledger = ledger(limit: 5, count: 5, read: [0, 1])
        #expect((ledger.count, ledger.unreadCount) == (5, 3))
        // A step is five here: the tenth notification prunes.
        #expect(add(5..<10, to: &ledger) == [false, false, false, false, true])
        // n0…n4 went: two read, three unread.
        #expect((ledger.count, ledger.unreadCount) == (5, 5))
        #expect(!ledger.isStored(id: "n4"))
        #expect(ledger.isStored(id: "n5") && ledger.isStored(id: "n9"))
    }

    @Test func readsAndDeletionsAreReflectedInWhatIsPruned() {
        var ledger = ledger(limit: 3, count: 3)
        ledger.markRead(id: "n0", wasUnread: true)
        ledger.remove(id: "n1", wasUnread: true)
        #expect(add(3..<6, to: &ledger) == [false, false, false])
        #expect((ledger.count, ledger.unreadCount) == (5, 4))
        #expect(add(6..<7, to: &ledger) == [true])
        // Of n0 (read), n2 and n3 (unread), all pruned: n4…n6 are left, unread.
        #expect((ledger.count, ledger.unreadCount) == (3, 3))
        ledger.markAllRead()
        #expect(add(7..<9, to: &ledger) == [false, false])
        #expect(add(9..<10, to: &ledger, isUnread: false) == [true])
        #expect((ledger.count, ledger.unreadCount) == (3, 2))
    }

    @Test func stepsAreSixtyFourWhenTheHistoryIsLonger() {
        var ledger = ledger(limit: 1_000, count: 1_000)
        let pruned = add(1_000..<1_064, to: &ledger, isUnread: false)
        #expect(pruned == Array(repeating: false, count: 63) + [true])
        #expect((ledger.count, ledger.unreadCount) == (1_000, 936))
    }

    @Test func withoutALimitOnlyTheCountsAreKept() {
        var ledger = ledger(limit: 0, count: 10, read: [3])
        #expect(!add(10..<200, to: &ledger).contains(true))
        ledger.markRead(id: "n5", wasUnread: true)
        ledger.remove(id: "n3", wasUnread: false)
        #expect((ledger.count, ledger.unreadCount) == (199, 198))
        #expect(ledger.isStored(id: "anything"))
    }

    @Test func entriesAreEightBytes() {
        #expect(MemoryLayout<NotificationLedger.Entry>.stride == 8)
        let entry = NotificationLedger.Entry(id: "n_abc", isUnread: true)
        #expect(entry.isUnread && !entry.read.isUnread)
        #expect(entry.read.isEntry(of: NotificationLedger.Entry.fingerprint(of: "n_abc")))
    }
}
