import Foundation
import GRDB
@testable import LifeSignalBroker
import LifeSignalEngine
import LifeSignalProtocol
@testable import LifeSignalPush
import LifeSignalStoreSQLite
import Testing

/// `StoreChange.pruneNotifications` on the real SQLite store: the newest kept, the pushes of the
/// others deleted with them, other users untouched, and a load reading its ledger from the index.
@Suite final class NotificationPruningTests {
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent("prune-\(UUID().uuidString)").path
    deinit { try? FileManager.default.removeItem(atPath: directory) }

    private func user(_ name: String) -> User {
        User(id: Credentials.newUserID(), name: name, phone: nil, qrCode: Credentials.newQRCode(),
             checkInIntervalSec: 86_400, lastCheckInAt: nil, checkInDeadline: nil, isNonResponsive: false,
             alert: nil, preferences: Preferences(push: true, mutedTypes: []), createdAt: 0)
    }

    private func write(_ store: SQLiteStore, _ changes: [StoreChange], query: StoreQuery? = nil) async throws
        -> StoreQueryResult?
    {
        try await withCheckedContinuation { continuation in
            store.submit(StoreWrite(changes: changes, query: query)) { continuation.resume(returning: $0) }
        }.get().queryResult
    }

    /// `count` notifications of `owner` (ids prefix0…, oldest first), each pushed to one token.
    private func notifications(_ prefix: String, of owner: User, _ count: Int) -> [StoreChange] {
        (0..<count).flatMap { index -> [StoreChange] in
            let notification = Notification(
                id: "\(prefix)\(index)", type: .ping, title: "Ping", message: "m", timestamp: Int64(index),
                contactData: ContactData(id: "u_x", name: "X", role: .responder, action: .ping))
            return [.insertNotification(userID: owner.id, notification),
                    .recordPush(PushMessage(userID: owner.id, deviceID: "phone", token: "t-\(owner.name)",
                                            notificationID: notification.id, body: [], createdAt: 0))]
        }
    }

    @Test func theNewestAreKeptWithTheirPushesAndOthersAreUntouched() async throws {
        let store = try SQLiteStore(directory: directory) { $0() }
        defer { store.close() }
        let alice = user("Alice")
        let bob = user("Bob")
        _ = try await write(store, [.createUser(alice, tokenHash: [0]), .createUser(bob, tokenHash: [0])]
            + notifications("a", of: alice, 10) + notifications("b", of: bob, 4) + [.setNotificationRead(id: "a9")])
        _ = try await write(store, [.pruneNotifications(userID: alice.id, keepNewest: 3),
                                    .pruneNotifications(userID: bob.id, keepNewest: 5)])

        guard case .user(let loaded?) = try await write(store, [], query: .user(id: alice.id)) else {
            Issue.record("no user")
            return
        }
        #expect(loaded.recentNotifications.map(\.id) == ["a9", "a8", "a7"])
        #expect((loaded.notificationCount, loaded.unreadCount) == (3, 2))
        #expect(loaded.notificationLedger == ["a7", "a8", "a9"].map {
            NotificationLedger.Entry(id: $0, isUnread: $0 != "a9")
        })
        let pushed = try await store.pool.read { db in
            try String.fetchAll(db, sql: "SELECT notification_id FROM pushes ORDER BY position")
        }
        #expect(pushed == ["a7", "a8", "a9", "b0", "b1", "b2", "b3"])
    }

    @Test func aLoadReadsTheLedgerFromTheIndexAlone() async throws {
        let store = try SQLiteStore(directory: directory) { $0() }
        defer { store.close() }
        let plan = try await store.pool.read { db in
            try String.fetchAll(db, sql: """
                EXPLAIN QUERY PLAN SELECT id, is_read FROM notifications WHERE user_id = 'u' ORDER BY position
                """, adapter: SuffixRowAdapter(fromIndex: 3))
        }
        #expect(plan.count == 1)
        #expect(plan.first?.contains("COVERING INDEX notifications_by_user") == true, "\(plan)")
    }
}
