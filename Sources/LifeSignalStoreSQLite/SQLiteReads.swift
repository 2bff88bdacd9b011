import Foundation
import GRDB
import LifeSignalEngine
import LifeSignalProtocol
import LifeSignalPush
import LifeSignalRules

/// Queries the broker needs; each runs inside the writer's transaction (see `StoreQuery`).
/// Prepared once on the writer's connection and read by column position (`DirectStatement`):
/// a storm of hellos loads thousands of users, six statements each, and GRDB's statement cache,
/// argument boxes and per-run column dictionaries cost more than SQLite's own work.
package struct SQLiteReads {
    private let selectUser: DirectStatement
    private let selectDevices: DirectStatement
    private let selectEventBounds: DirectStatement
    private let selectLedger: DirectStatement
    private let selectContacts: DirectStatement
    private let selectNewestNotifications: DirectStatement
    private let selectNotificationPosition: DirectStatement
    private let selectNotification: DirectStatement
    private let selectHistoryFloor: DirectStatement
    private let selectPushes: DirectStatement
    private let selectEvents: DirectStatement
    private let selectQRCodeOwner: DirectStatement
    private let selectPendingDeadlines: DirectStatement
    private let selectKeptOperations: DirectStatement
    private let selectKeptOutcome: DirectStatement

    /// Prepares the statements on the writer's connection, which they must only be used with.
    package init(_ db: Database) throws {
        selectUser = try DirectStatement(db, sql: """
            SELECT \(UserColumns.all.joined(separator: ", ")) FROM users WHERE id = ?
            """)
        selectDevices = try DirectStatement(db, sql: """
            SELECT device_id, platform, push_token, last_seen_at FROM devices WHERE user_id = ?
            """)
        // Two subqueries, not `SELECT min(seq), max(seq) …`: SQLite answers a lone min() or max()
        // with one seek, but both in one SELECT by scanning every event the user has (up to
        // --event-retention rows with their bodies, on every cold load).
        selectEventBounds = try DirectStatement(db, sql: """
            SELECT (SELECT min(seq) FROM events WHERE user_id = ?1), (SELECT max(seq) FROM events WHERE user_id = ?1)
            """)
        selectLedger = try DirectStatement(db, sql: "SELECT id, is_read FROM notifications WHERE user_id = ? ORDER BY position")
        selectContacts = try DirectStatement(db, sql: """
            SELECT c.contact_id, c.is_responder, c.is_dependent, c.added_at, c.incoming_ping_id, c.incoming_ping_at,
                   c.outgoing_ping_id, c.outgoing_ping_at, u.name, u.last_check_in_at, u.check_in_deadline,
                   u.is_non_responsive, u.alert_id, u.alert_started_at, u.alert_message
            FROM contacts c JOIN users u ON u.id = c.contact_id WHERE c.user_id = ?
            """)
        selectNewestNotifications = try DirectStatement(db, sql: """
            SELECT \(NotificationColumns.selected) FROM notifications
            WHERE user_id = ? AND position < ? AND position >= ? ORDER BY position DESC LIMIT ?
            """)
        selectNotificationPosition = try DirectStatement(db, sql: """
            SELECT position FROM notifications WHERE id = ? AND user_id = ?
            """)
        selectNotification = try DirectStatement(db, sql: """
            SELECT \(NotificationColumns.selected) FROM notifications WHERE id = ? AND user_id = ?
            """)
        // The oldest position of the user's newest `history` (the OFFSET), from the index alone.
        selectHistoryFloor = try DirectStatement(db, sql: """
            SELECT position FROM notifications WHERE user_id = ? ORDER BY position DESC LIMIT 1 OFFSET ?
            """)
        selectPushes = try DirectStatement(db, sql: """
            SELECT device_id, token, notification_id, body, created_at FROM pushes WHERE user_id = ? ORDER BY position
            """)
        selectEvents = try DirectStatement(db, sql: """
            SELECT seq, body FROM events WHERE user_id = ? AND seq > ? AND seq <= ? ORDER BY seq
            """)
        selectQRCodeOwner = try DirectStatement(db, sql: "SELECT id, name FROM users WHERE qr_code = ?")
        selectPendingDeadlines = try DirectStatement(db, sql: """
            SELECT id, check_in_deadline FROM users
            WHERE check_in_deadline IS NOT NULL AND is_non_responsive = 0
            """)
        selectKeptOperations = try DirectStatement(db, sql: """
            SELECT op_id, op, kept_at FROM kept_outcomes WHERE user_id = ? ORDER BY kept_at, op_id
            """)
        selectKeptOutcome = try DirectStatement(db, sql: """
            SELECT op, answer, kept_at FROM kept_outcomes WHERE user_id = ? AND op_id = ?
            """)
    }

    package func answer(_ query: StoreQuery, _ db: Database) throws -> StoreQueryResult {
        switch query {
        case .events(let userID, let afterSeq, let throughSeq, let maxBytes):
            .events(try events(userID: userID, after: afterSeq, through: throughSeq, maxBytes: maxBytes, db))
        case .user(let id):
            .user(try storedUser(id: id, db))
        case .accounts(let ids):
            .accounts(try ids.compactMap { try account(id: $0, db) })
        case .devices(let userID):
            .devices(try devices(of: userID, db))
        case .qrCodeOwner(let code):
            .qrCodeOwner(try selectQRCodeOwner.rows(db, { $0.add(code) }) { QRCodeOwner(id: $0.string(0), name: $0.string(1)) }.first)
        case .notifications(let userID, let beforeID, let limit, let history):
            .notifications(try notifications(userID: userID, beforeID: beforeID, limit: limit, history: history, db))
        case .keptOutcome(let userID, let opID):
            .keptOutcome(try keptOutcome(opID, of: userID, db))
        case .keptOutcomes(let userID):
            .keptOutcomes(try keptOperations(of: userID, db).compactMap { try keptOutcome($0.opID, of: userID, db) })
        case .pendingDeadlines:
            .deadlines(try selectPendingDeadlines.rows(db, { _ in }) { (userID: $0.string(0), deadline: $0.int64(1)) })
        case .notification(let userID, let id, let history):
            .notification(try notification(id, of: userID, history: history, db))
        case .pushes(let userID):
            .pushes(try selectPushes.rows(db, { $0.add(userID) }) { row in
                PushMessage(userID: userID, deviceID: row.string(0), token: row.string(1),
                            notificationID: row.string(2), body: row.bytes(3), createdAt: row.int64(4))
            })
        case .deviceCredentials(let userID):
            .deviceCredentials(try deviceCredentials(of: userID, db))
        case .linkCode(let code):
            .linkCode(try Row.fetchOne(db, sql: "SELECT user_id, expires_at FROM link_codes WHERE code = ?",
                                       arguments: [code]).map { LinkCode(code: code, userID: $0[0], expiresAt: $0[1]) })
        }
    }

    package func storedUser(id: String, _ db: Database) throws -> StoredUser? {
        guard let row = try selectUser.rows(db, { $0.add(id) }, UserColumns.userAndTokenHash(from:)).first
        else { return nil }
        var (user, tokenHash) = (row.0, row.1)
        // The same text as the column, held once: the broker keys the loaded user by `id`, so the
        // session's copy of the string would be a second heap block per online user.
        user.id = id
        let devices = try devices(of: id, db)
        let bounds = try selectEventBounds.rows(db, { $0.add(id) }) { (oldest: $0.optionalInt64(0), newest: $0.optionalInt64(1)) }
        let lastSeq = bounds.first?.newest ?? 0
        let oldest = bounds.first?.oldest ?? lastSeq + 1
        // Every notification of the user, oldest first, from the index alone. As many as the
        // history keeps: a load prunes it first (`Broker.load`).
        let ledger = try selectLedger.rows(db, { $0.add(id) }) { NotificationLedger.Entry(id: $0.string(0), isUnread: !$0.bool(1)) }
        return StoredUser(
            user: user, tokenHash: tokenHash, devices: devices,
            lastSeq: lastSeq, oldestRetainedSeq: oldest, contacts: try contacts(of: id, db),
            recentNotifications: try notifications(userID: id, beforeID: nil, limit: Validate.notificationPage,
                                                  history: 0, db) ?? [],
            notificationCount: ledger.count, unreadCount: ledger.filter(\.isUnread).count,
            notificationLedger: ledger, keptOperations: try keptOperations(of: id, db),
            deviceCredentials: try deviceCredentials(of: id, db))
    }

    private func deviceCredentials(of userID: String, _ db: Database) throws -> [DeviceCredential] {
        try Row.fetchAll(db, sql: """
            SELECT device_id, token_hash, linked_at FROM device_credentials WHERE user_id = ? ORDER BY device_id
            """, arguments: [userID]).map { row in
            DeviceCredential(key: DeviceKey(userID: userID, deviceID: row[0]), tokenHash: [UInt8](row[1] as Data),
                             linkedAt: row[2])
        }
    }

    /// Oldest first, as `KeptOperations` prunes them.
    private func keptOperations(of userID: String, _ db: Database) throws -> [KeptOperation] {
        try selectKeptOperations.rows(db, { $0.add(userID) }) {
            KeptOperation(opID: $0.string(0), op: $0.string(1), keptAt: $0.int64(2))
        }
    }

    private func keptOutcome(_ opID: String, of userID: String, _ db: Database) throws -> KeptOutcome? {
        try selectKeptOutcome.rows(db, { row in
            row.add(userID)
            row.add(opID)
        }) { row in
            KeptOutcome.answer(stored: row.bytes(1)).map {
                KeptOutcome(opID: opID, op: row.string(0), answer: $0, keptAt: row.int64(2))
            }
        }.first ?? nil
    }

    /// The user's document and their side of every relationship, as the rules are given them.
    private func account(id: String, _ db: Database) throws -> Account? {
        guard let (user, _) = try selectUser.rows(db, { $0.add(id) }, UserColumns.userAndTokenHash(from:)).first
        else { return nil }
        let records = try contacts(of: id, db).map { ($0.record.contactID, $0.record) }
        return Account(user: user, contacts: Dictionary(uniqueKeysWithValues: records))
    }

    private func devices(of userID: String, _ db: Database) throws -> [DeviceRecord] {
        try selectDevices.rows(db, { $0.add(userID) }) { row in
            DeviceRecord(key: DeviceKey(userID: userID, deviceID: row.string(0)), platform: row.optionalString(1),
                         pushToken: row.optionalString(2), lastSeenAt: row.optionalInt64(3))
        }
    }

    /// Each contact row joined with the contact's own user row, which the mirror is made of.
    private func contacts(of userID: String, _ db: Database) throws -> [(record: ContactRecord, mirror: ContactMirror)] {
        try selectContacts.rows(db, { $0.add(userID) }) { row in
            let record = ContactRecord(
                userID: userID, contactID: row.string(0), isResponder: row.bool(1), isDependent: row.bool(2),
                addedAt: row.int64(3),
                incomingPing: Self.pendingPing(id: row.optionalString(4), at: row.optionalInt64(5)),
                outgoingPing: Self.pendingPing(id: row.optionalString(6), at: row.optionalInt64(7)))
            let mirror = ContactMirror(
                name: row.string(8), lastCheckInAt: row.optionalInt64(9), checkInDeadline: row.optionalInt64(10),
                isNonResponsive: row.bool(11),
                alert: row.optionalString(12).map {
                    AlertInfo(id: $0, startedAt: row.int64(13), message: row.optionalString(14))
                })
            return (record, mirror)
        }
    }

    private static func pendingPing(id: String?, at: Int64?) -> PendingPing? {
        guard let id, let at else { return nil }
        return PendingPing(id: id, sentAt: at)
    }

    private func notifications(userID: String, beforeID: String?, limit: Int, history: Int, _ db: Database) throws
        -> [Notification]?
    {
        let floor = try historyFloor(of: userID, history: history, db)
        var upperBound = Int64.max
        if let beforeID {
            guard let position = try position(of: beforeID, userID: userID, db), position >= floor else { return nil }
            upperBound = position
        }
        return try selectNewestNotifications.rows(db, { row in
            row.add(userID)
            row.add(upperBound)
            row.add(floor)
            row.add(Int64(limit))
        }, NotificationColumns.notification(from:))
    }

    private func notification(_ id: String, of userID: String, history: Int, _ db: Database) throws -> Notification? {
        guard let position = try position(of: id, userID: userID, db),
              position >= (try historyFloor(of: userID, history: history, db)) else { return nil }
        return try selectNotification.rows(db, { $0.add(id); $0.add(userID) }, NotificationColumns.notification(from:)).first
    }

    private func position(of id: String, userID: String, _ db: Database) throws -> Int64? {
        try selectNotificationPosition.rows(db, { $0.add(id); $0.add(userID) }, { $0.int64(0) }).first
    }

    /// The oldest position in the user's newest `history` notifications; 0 when they have no more
    /// (or `history` is 0: all).
    private func historyFloor(of userID: String, history: Int, _ db: Database) throws -> Int64 {
        guard history > 0 else { return 0 }
        return try selectHistoryFloor.rows(db, { $0.add(userID); $0.add(Int64(history - 1)) }, { $0.int64(0) }).first ?? 0
    }

    /// The bodies of `(after, through]`, or nil if any of them has been pruned or their frames
    /// would take more than `maxBytes` (reading stops there).
    private func events(userID: String, after: Int64, through: Int64, maxBytes: Int, _ db: Database) throws
        -> [[UInt8]]?
    {
        guard through > after else { return [] }
        var bodies: [[UInt8]] = []
        var expected = after + 1
        var frameBytes = 0
        var complete = true
        try selectEvents.forEachRow(db, { $0.add(userID); $0.add(after); $0.add(through) }) { row in
            frameBytes += 4 + Int(row.byteCount(1))
            guard row.int64(0) == expected, frameBytes <= maxBytes else {
                complete = false
                return false
            }
            bodies.append(row.bytes(1))
            expected += 1
            return true
        }
        return complete && expected == through + 1 ? bodies : nil
    }
}

/// Rows of `notifications` back into documents.
package enum NotificationColumns {
    /// The columns `notification(from:)` reads, in its order.
    package static let selected = """
        id, type, title, message, timestamp, is_read, related_contact_id, related_alert_id, related_ping_id,
        contact_data, alert_data
        """

    package static func notification(from row: DirectStatement.Columns) -> LifeSignalProtocol.Notification {
        Notification(
            id: row.string(0),
            type: NotificationType(rawValue: row.string(1)) ?? .added,
            title: row.string(2),
            message: row.string(3),
            timestamp: row.int64(4),
            isRead: row.bool(5),
            relatedContactID: row.optionalString(6),
            relatedAlertID: row.optionalString(7),
            relatedPingID: row.optionalString(8),
            contactData: row.optionalString(9).flatMap { text in
                (try? JSONValue.parse(Array(text.utf8))).flatMap { try? ContactData(json: $0) }
            },
            alertData: row.optionalString(10).flatMap { text in
                (try? JSONValue.parse(Array(text.utf8))).flatMap { try? AlertInfo(json: $0) }
            })
    }
}
