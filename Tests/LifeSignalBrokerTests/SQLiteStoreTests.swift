import Foundation
import GRDB
@testable import LifeSignalBroker
import LifeSignalEngine
import LifeSignalProtocol
import LifeSignalRules
import LifeSignalStoreSQLite
import LifeSignalUV
import Testing

@Suite final class SQLiteStoreTests {
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent("store-\(UUID().uuidString)").path

    deinit { try? FileManager.default.removeItem(atPath: directory) }

    private func openStore() throws -> SQLiteStore {
        try SQLiteStore(directory: directory) { work in work() }
    }

    private func user(_ name: String) -> User {
        User(id: Credentials.newUserID(), name: name, phone: nil, qrCode: Credentials.newQRCode(),
             checkInIntervalSec: 86_400, lastCheckInAt: nil, checkInDeadline: nil, isNonResponsive: false,
             alert: nil, preferences: Preferences(push: true, mutedTypes: [.ping]), createdAt: 1_700_000_000_000)
    }

    private func write(_ store: SQLiteStore, _ changes: [StoreChange], query: StoreQuery? = nil) async
        -> Result<StoreWriteResult, Error>
    {
        await withCheckedContinuation { continuation in
            store.submit(StoreWrite(changes: changes, query: query)) { continuation.resume(returning: $0) }
        }
    }

    /// A store left by an older broker: migrated up to `version` only, then `sql` run on it.
    private func makeStore(at version: String, holding sql: String) async throws {
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        let old = try DatabaseQueue(path: SQLiteStore.path(in: directory))
        try SQLiteSchema.migrator.migrate(old, upTo: version)
        try await old.write { db in try db.execute(sql: sql) }
        try old.close()
    }

    private func load(_ store: SQLiteStore, _ id: String) async throws -> StoredUser? {
        guard case .user(let stored) = try await write(store, [], query: .user(id: id)).get().queryResult else {
            return nil
        }
        return stored
    }

    private func events(_ store: SQLiteStore, _ id: String, after: Int64, through: Int64, maxBytes: Int = .max)
        async throws -> [[UInt8]]?
    {
        let query = StoreQuery.events(userID: id, afterSeq: after, throughSeq: through, maxBytes: maxBytes)
        let answer = try await write(store, [], query: query).get().queryResult
        guard case .events(let bodies) = answer else { return nil }
        return bodies
    }

    @Test func aCreatedUserLoadsBackWithDevicesAndSeq() async throws {
        let store = try openStore()
        var alice = user("Alice")
        _ = try await write(store, [.createUser(alice, tokenHash: [1, 2, 3])]).get()
        alice.alert = AlertInfo(id: "a_1", startedAt: 5, message: "help")
        alice.phone = "+15550100"
        let device = DeviceRecord(key: DeviceKey(userID: alice.id, deviceID: "phone"), platform: "ios",
                                  pushToken: "tok", lastSeenAt: 9)
        _ = try await write(store, [
            .updateUser(alice), .upsertDevice(device),
            .appendEvent(userID: alice.id, seq: 1, body: [1]), .appendEvent(userID: alice.id, seq: 2, body: [2]),
        ]).get()
        store.close()

        let reopened = try openStore()
        let loaded = try #require(try await load(reopened, alice.id))
        #expect(loaded.user == alice)
        #expect(loaded.tokenHash == [1, 2, 3])
        #expect(loaded.devices == [device])
        #expect(loaded.lastSeq == 2)
        #expect(loaded.oldestRetainedSeq == 1)
        #expect(try await load(reopened, "u_nobody") == nil)
        reopened.close()
    }

    @Test func catchUpReadsARangeOrReportsItPruned() async throws {
        let store = try openStore()
        let alice = user("Alice")
        var changes: [StoreChange] = [.createUser(alice, tokenHash: [0])]
        for seq in 1...10 { changes.append(.appendEvent(userID: alice.id, seq: Int64(seq), body: [UInt8(seq)])) }
        changes.append(.pruneEvents(userID: alice.id, throughSeq: 4))
        _ = try await write(store, changes).get()

        #expect(try await events(store, alice.id, after: 6, through: 9) == [[7], [8], [9]])
        #expect(try await events(store, alice.id, after: 2, through: 9) == nil)
        #expect(try await events(store, alice.id, after: 10, through: 10) == [])
        // Three frames of 4 + 1 bytes: a catch-up that would not fit is no replay (§3, v1.1).
        #expect(try await events(store, alice.id, after: 6, through: 9, maxBytes: 15) == [[7], [8], [9]])
        #expect(try await events(store, alice.id, after: 6, through: 9, maxBytes: 14) == nil)
        store.close()
    }

    @Test func aFailingWriteRollsBackAloneInItsBatch() async throws {
        let store = try openStore()
        let alice = user("Alice")
        _ = try await write(store, [.createUser(alice, tokenHash: [0])]).get()
        // Submitted back to back so they share a group commit; the middle one breaks the seq key.
        let batches: [[StoreChange]] = [
            [.appendEvent(userID: alice.id, seq: 1, body: [1])],
            [.appendEvent(userID: alice.id, seq: 2, body: [2]), .appendEvent(userID: alice.id, seq: 1, body: [9])],
            [.appendEvent(userID: alice.id, seq: 3, body: [3])],
        ]
        let succeeded = Locked<[Bool]>([])
        let done = DispatchSemaphore(value: 0)
        for changes in batches {
            store.submit(StoreWrite(changes: changes)) { result in
                let count = succeeded.withLock { list in
                    list.append((try? result.get()) != nil)
                    return list.count
                }
                if count == batches.count { done.signal() }
            }
        }
        done.wait()
        #expect(succeeded.withLock { $0 } == [true, false, true])
        let loaded = try #require(try await load(store, alice.id))
        #expect(loaded.lastSeq == 3)
        #expect(try await events(store, alice.id, after: 0, through: 3) == nil)  // seq 2 rolled back with its request
        store.close()
    }

    /// A load's event bounds are the user's own oldest and newest kept seq, whatever the others have.
    @Test func aLoadReadsTheUsersOwnEventBounds() async throws {
        let store = try openStore()
        let alice = user("Alice"), bob = user("Bob"), carol = user("Carol")
        var changes: [StoreChange] = [alice, bob, carol].map { .createUser($0, tokenHash: [0]) }
        changes += (1...40).map { .appendEvent(userID: alice.id, seq: $0, body: [1]) }
        changes += (1...90).map { .appendEvent(userID: bob.id, seq: $0, body: [2]) }
        changes.append(.pruneEvents(userID: alice.id, throughSeq: 25))
        _ = try await write(store, changes).get()
        let loadedAlice = try #require(try await load(store, alice.id))
        #expect(loadedAlice.lastSeq == 40 && loadedAlice.oldestRetainedSeq == 26)
        let loadedBob = try #require(try await load(store, bob.id))
        #expect(loadedBob.lastSeq == 90 && loadedBob.oldestRetainedSeq == 1)
        let loadedCarol = try #require(try await load(store, carol.id))
        #expect(loadedCarol.lastSeq == 0 && loadedCarol.oldestRetainedSeq == 1)
        store.close()
    }

    @Test func everyConnectionsPageCacheIsBoundedAsConfigured() throws {
        let store = try SQLiteStore(directory: directory, cacheMiB: 3) { work in work() }
        let cacheSize = "PRAGMA cache_size"
        #expect(try store.pool.write { db in try Int.fetchOne(db, sql: cacheSize) } == -3 * 1024)
        #expect(try store.pool.read { db in try Int.fetchOne(db, sql: cacheSize) } == -3 * 1024)
        store.close()
        let byDefault = try openStore()
        #expect(try byDefault.pool.read { db in try Int.fetchOne(db, sql: cacheSize) } == -1024 * SQLiteStore.defaultCacheMiB)
        byDefault.close()
    }

    @Test func manyConcurrentWritesAllCommitAndCompleteInOrder() async throws {
        let store = try openStore()
        let alice = user("Alice")
        _ = try await write(store, [.createUser(alice, tokenHash: [0])]).get()
        let completed = Locked<[Int64]>([])
        let done = DispatchSemaphore(value: 0)
        for seq in Int64(1)...2_000 {
            store.submit(StoreWrite(changes: [.appendEvent(userID: alice.id, seq: seq, body: [0])])) { result in
                if case .success = result { completed.withLock { $0.append(seq) } }
                if seq == 2_000 { done.signal() }
            }
        }
        done.wait()
        #expect(completed.withLock { $0 } == Array(1...2_000))
        #expect(try await load(store, alice.id)?.lastSeq == 2_000)
        store.close()
    }

    @Test func aMovedPushTokenLeavesItsFormerHolder() async throws {
        let store = try openStore()
        let alice = user("Alice")
        let bob = user("Bob")
        let alicePhone = DeviceRecord(key: DeviceKey(userID: alice.id, deviceID: "p"), platform: nil,
                                      pushToken: "shared", lastSeenAt: nil)
        _ = try await write(store, [
            .createUser(alice, tokenHash: [0]), .createUser(bob, tokenHash: [0]), .upsertDevice(alicePhone),
        ]).get()
        let bobPhone = DeviceRecord(key: DeviceKey(userID: bob.id, deviceID: "p"), platform: nil,
                                    pushToken: nil, lastSeenAt: nil)
        _ = try await write(store, [.upsertDevice(bobPhone),
                                    .movePushToken(token: "shared", to: bobPhone.key, platform: nil)]).get()
        #expect(try await load(store, alice.id)?.devices.first?.pushToken == nil)
        #expect(try await load(store, bob.id)?.devices.first?.pushToken == "shared")
        store.close()
    }

    @Test func contactsLoadWithTheOtherUsersCurrentDetails() async throws {
        let store = try openStore()
        var alice = user("Alice")
        let bob = user("Bob")
        let ping = PendingPing(id: "p_1", sentAt: 7)
        _ = try await write(store, [
            .createUser(alice, tokenHash: [0]), .createUser(bob, tokenHash: [0]),
            .upsertContact(ContactRecord(userID: bob.id, contactID: alice.id, isResponder: false, isDependent: true,
                                         addedAt: 1, outgoingPing: ping)),
        ]).get()
        alice.name = "Alice Renamed"
        alice.lastCheckInAt = 10
        alice.alert = AlertInfo(id: "a_1", startedAt: 11, message: nil)
        _ = try await write(store, [.updateUser(alice)]).get()
        let loaded = try #require(try await load(store, bob.id))
        #expect(loaded.contacts.count == 1)
        #expect(loaded.contacts.first?.record.outgoingPing == ping)
        #expect(loaded.contacts.first?.mirror == ContactMirror(of: alice))
        _ = try await write(store, [.deleteContact(userID: bob.id, contactID: alice.id)]).get()
        #expect(try await load(store, bob.id)?.contacts.isEmpty == true)
        store.close()
    }

    @Test func anUpsertedContactReplacesTheWholeRow() async throws {
        let store = try openStore()
        let alice = user("Alice")
        let bob = user("Bob")
        var record = ContactRecord(userID: bob.id, contactID: alice.id, isResponder: false, isDependent: true,
                                   addedAt: 1, outgoingPing: PendingPing(id: "p_1", sentAt: 7))
        _ = try await write(store, [.createUser(alice, tokenHash: [0]), .createUser(bob, tokenHash: [0]),
                                    .upsertContact(record)]).get()
        record.isResponder = true
        record.outgoingPing = nil
        record.incomingPing = PendingPing(id: "p_2", sentAt: 8)
        _ = try await write(store, [.upsertContact(record)]).get()
        let loaded = try #require(try await load(store, bob.id))
        #expect(loaded.contacts.map(\.record) == [record])
        store.close()
    }

    @Test func aFailingWriteDoesNotCostItsBatchesQueriesTheirAnswers() async throws {
        let store = try openStore()
        let alice = user("Alice")
        _ = try await write(store, [.createUser(alice, tokenHash: [0]),
                                    .appendEvent(userID: alice.id, seq: 1, body: [1])]).get()
        // Back to back, so they share a group commit: the failing one sends the batch down the
        // savepoint path, where the others run again and must give the same answers.
        let results = Locked<[Result<StoreWriteResult, Error>]>([])
        let done = DispatchSemaphore(value: 0)
        let writes = [
            StoreWrite(changes: [.appendEvent(userID: alice.id, seq: 2, body: [2])]),
            StoreWrite(changes: [.appendEvent(userID: alice.id, seq: 1, body: [9])]),
            StoreWrite(changes: [], query: .events(userID: alice.id, afterSeq: 0, throughSeq: 2, maxBytes: .max)),
        ]
        for write in writes {
            store.submit(write) { result in
                if results.withLock({ $0.append(result); return $0.count }) == writes.count { done.signal() }
            }
        }
        done.wait()
        let outcome = results.withLock { $0 }
        #expect((try? outcome[0].get()) != nil)
        #expect((try? outcome[1].get()) == nil)
        guard case .events(let bodies) = try outcome[2].get().queryResult else { Issue.record("no events"); return }
        #expect(bodies == [[1], [2]])
        store.close()
    }

    @Test func aVersion3DatabaseOpensWithOneIndexOfNotificationsByUser() async throws {
        try await makeStore(at: "v3: pushes, deadlines", holding: """
            INSERT INTO users (id, name, qr_code, token_hash, check_in_interval_sec, created_at)
            VALUES ('u_a', 'A', 'QR', x'00', 60, 0);
            INSERT INTO notifications (id, user_id, type, title, message, timestamp, is_read)
            VALUES ('n_1', 'u_a', 'ping', 'Ping', 'm', 1, 0), ('n_2', 'u_a', 'ping', 'Ping', 'm', 2, 1);
            """)

        let store = try openStore()
        let loaded = try #require(try await load(store, "u_a"))
        #expect(loaded.notificationCount == 2)
        #expect(loaded.unreadCount == 1)
        #expect(loaded.recentNotifications.map(\.id) == ["n_2", "n_1"])
        let indexes = try await store.pool.read { db in
            try String.fetchAll(db, sql: "SELECT name FROM pragma_index_list('notifications') ORDER BY name")
        }
        #expect(indexes == ["notifications_by_user", "sqlite_autoindex_notifications_1"])
        store.close()
    }

    /// Both sides of a relationship are one row (v7): each side loads its own view of it, the
    /// second side's upsert finds the row the first wrote, and a deletion by either side ends it.
    @Test func bothSidesOfARelationshipAreOneRow() async throws {
        let store = try openStore()
        let (alice, bob) = (user("Alice"), user("Bob"))
        let ping = PendingPing(id: "p_1", sentAt: 7)
        let bobsSide = ContactRecord(userID: bob.id, contactID: alice.id, isResponder: false, isDependent: true,
                                     addedAt: 1, outgoingPing: ping)
        let alicesSide = ContactRecord(userID: alice.id, contactID: bob.id, isResponder: true, isDependent: false,
                                       addedAt: 1, incomingPing: ping)
        _ = try await write(store, [.createUser(alice, tokenHash: [0]), .createUser(bob, tokenHash: [0]),
                                    .upsertContact(bobsSide), .upsertContact(alicesSide)]).get()
        #expect(try await load(store, bob.id)?.contacts.map(\.record) == [bobsSide])
        #expect(try await load(store, alice.id)?.contacts.map(\.record) == [alicesSide])
        let rows = try await store.pool.read { db in try Int.fetchOne(db, sql: "SELECT count(*) FROM relationships") }
        #expect(rows == 1)
        _ = try await write(store, [.deleteContact(userID: alice.id, contactID: bob.id)]).get()
        #expect(try await load(store, bob.id)?.contacts.isEmpty == true)
        #expect(try await load(store, alice.id)?.contacts.isEmpty == true)
        store.close()
    }

    /// A side whose row the request already wrote as it is costs no statement; whatever a request
    /// wrote last to a relationship, a change back or a deletion and a new upsert, is what stays.
    @Test func aRequestsLastWordOnARelationshipIsWhatStays() async throws {
        let store = try openStore()
        let (alice, bob) = (user("Alice"), user("Bob"))
        let plain = ContactRecord(userID: bob.id, contactID: alice.id, isResponder: false, isDependent: true, addedAt: 1)
        var pinged = plain
        pinged.outgoingPing = PendingPing(id: "p_1", sentAt: 7)
        let alicesPinged = ContactRecord(userID: alice.id, contactID: bob.id, isResponder: true, isDependent: false,
                                         addedAt: 1, incomingPing: pinged.outgoingPing)
        _ = try await write(store, [.createUser(alice, tokenHash: [0]), .createUser(bob, tokenHash: [0]),
                                    .upsertContact(pinged), .upsertContact(alicesPinged), .upsertContact(plain),
                                    .upsertContact(pinged)]).get()
        #expect(try await load(store, bob.id)?.contacts.map(\.record) == [pinged])
        _ = try await write(store, [.upsertContact(plain), .deleteContact(userID: alice.id, contactID: bob.id),
                                    .upsertContact(plain)]).get()
        #expect(try await load(store, bob.id)?.contacts.map(\.record) == [plain])
        _ = try await write(store, [.upsertContact(pinged), .upsertContact(alicesPinged),
                                    .deleteContact(userID: bob.id, contactID: alice.id)]).get()
        #expect(try await load(store, alice.id)?.contacts.isEmpty == true)
        store.close()
    }

    /// Ids whose bytes and whose characters sort differently still name one row: the ends are
    /// ordered as SQLite orders them (the table's CHECK refuses any other order).
    @Test func relationshipEndsFollowSQLitesOrder() async throws {
        let store = try openStore()
        var (first, second) = (user("É"), user("Z"))
        (first.id, second.id) = ("u_\u{E9}", "u_z")
        _ = try await write(store, [
            .createUser(first, tokenHash: [0]), .createUser(second, tokenHash: [0]),
            .upsertContact(ContactRecord(userID: first.id, contactID: second.id, isResponder: true,
                                         isDependent: false, addedAt: 1)),
        ]).get()
        #expect(try await load(store, second.id)?.contacts.first?.record.isDependent == true)
        store.close()
    }

    /// A v6 store kept one row per side; opening it keeps every relationship as one row, each
    /// side's view as it was, and the `contacts` view shows operators what the old table held.
    @Test func aVersion6DatabaseOpensWithOneRowPerRelationship() async throws {
        try await makeStore(at: "v6: notification ids in the index by user", holding: """
            INSERT INTO users (id, name, qr_code, token_hash, check_in_interval_sec, created_at)
            VALUES ('u_a', 'A', 'QA', x'00', 60, 0), ('u_b', 'B', 'QB', x'00', 60, 0),
                   ('u_c', 'C', 'QC', x'00', 60, 0);
            INSERT INTO contacts (user_id, contact_id, is_responder, is_dependent, added_at,
                                  incoming_ping_at, incoming_ping_id, outgoing_ping_at, outgoing_ping_id)
            VALUES ('u_a', 'u_b', 0, 1, 5, NULL, NULL, 9, 'p_9'),
                   ('u_b', 'u_a', 1, 0, 5, 9, 'p_9', NULL, NULL),
                   ('u_c', 'u_a', 1, 1, 6, NULL, NULL, NULL, NULL);
            """)

        let store = try openStore()
        let a = try #require(try await load(store, "u_a")).contacts.map(\.record).sorted { $0.contactID < $1.contactID }
        #expect(a == [
            ContactRecord(userID: "u_a", contactID: "u_b", isResponder: false, isDependent: true, addedAt: 5,
                          outgoingPing: PendingPing(id: "p_9", sentAt: 9)),
            ContactRecord(userID: "u_a", contactID: "u_c", isResponder: true, isDependent: true, addedAt: 6),
        ])
        #expect(try await load(store, "u_b")?.contacts.map(\.record) == [
            ContactRecord(userID: "u_b", contactID: "u_a", isResponder: true, isDependent: false, addedAt: 5,
                          incomingPing: PendingPing(id: "p_9", sentAt: 9)),
        ])
        let (relationships, viewRows) = try await store.pool.read { db in
            (try Int.fetchOne(db, sql: "SELECT count(*) FROM relationships"),
             try Int.fetchOne(db, sql: "SELECT count(*) FROM contacts"))
        }
        #expect(relationships == 2)
        #expect(viewRows == 4)
        store.close()
    }

    @Test func everyNotificationFieldLoadsBackAsWritten() async throws {
        let store = try openStore()
        let alice = user("Alice")
        let full = Notification(
            id: "n_full", type: .alert, title: "Alert", message: "Bob needs help", timestamp: 42, isRead: true,
            relatedContactID: "u_bob", relatedAlertID: "a_1", relatedPingID: "p_1",
            contactData: ContactData(id: "u_bob", name: "Bob", role: .dependent, action: .alert),
            alertData: AlertInfo(id: "a_1", startedAt: 41, message: "help"))
        let bare = Notification(id: "n_bare", type: .ping, title: "Ping", message: "", timestamp: 43)
        _ = try await write(store, [
            .createUser(alice, tokenHash: [0]),
            .insertNotification(userID: alice.id, full), .insertNotification(userID: alice.id, bare),
        ]).get()
        let loaded = try #require(try await load(store, alice.id))
        #expect(loaded.recentNotifications == [bare, full])
        let byID = try await write(store, [], query: .notification(userID: alice.id, id: "n_full", history: 0)).get().queryResult
        guard case .notification(let found) = byID else { Issue.record("no answer"); return }
        #expect(found == full)
        let foreign = try await write(store, [], query: .notification(userID: "u_other", id: "n_full", history: 0)).get().queryResult
        guard case .notification(let none) = foreign else { Issue.record("no answer"); return }
        #expect(none == nil)
        store.close()
    }

    @Test func notificationsPageNewestFirstAndKeepTheirCounts() async throws {
        let store = try openStore()
        let alice = user("Alice")
        var changes: [StoreChange] = [.createUser(alice, tokenHash: [0])]
        for index in 0..<150 {
            changes.append(.insertNotification(userID: alice.id, Notification(
                id: "n_\(index)", type: .ping, title: "Ping", message: "m\(index)", timestamp: Int64(index),
                contactData: ContactData(id: "u_x", name: "X", role: .responder, action: .ping))))
        }
        _ = try await write(store, changes).get()
        _ = try await write(store, [.setNotificationRead(id: "n_149"), .deleteNotification(id: "n_148")]).get()
        let loaded = try #require(try await load(store, alice.id))
        #expect(loaded.notificationCount == 149)
        #expect(loaded.unreadCount == 148)
        #expect(loaded.recentNotifications.count == 100)
        #expect(loaded.recentNotifications.first?.id == "n_149")
        #expect(loaded.recentNotifications.first?.isRead == true)
        #expect(loaded.recentNotifications.first?.contactData?.role == .responder)

        let page = try await write(store, [], query: .notifications(userID: alice.id, beforeID: "n_10", limit: 5, history: 0))
            .get().queryResult
        guard case .notifications(let older?) = page else { Issue.record("no page"); return }
        #expect(older.map(\.id) == ["n_9", "n_8", "n_7", "n_6", "n_5"])
        let foreign = try await write(store, [], query: .notifications(userID: "u_other", beforeID: "n_10", limit: 5, history: 0))
            .get().queryResult
        if case .notifications(let none) = foreign { #expect(none == nil) }

        _ = try await write(store, [.markAllNotificationsRead(userID: alice.id)]).get()
        #expect(try await load(store, alice.id)?.unreadCount == 0)
        store.close()
    }
}
