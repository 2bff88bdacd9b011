import Foundation
import GRDB
import LifeSignalProtocol

/// Queries the broker needs; each runs inside the writer's transaction (see `StoreQuery`).
/// Statements are cached: compiling one (with GRDB's authorizer) cost more than running it,
/// and a storm of hellos loads thousands of users.
enum SQLiteReads {
    static func answer(_ query: StoreQuery, _ db: Database) throws -> StoreQueryResult {
        switch query {
        case .events(let userID, let afterSeq, let throughSeq, let maxBytes):
            .events(try events(userID: userID, after: afterSeq, through: throughSeq, maxBytes: maxBytes, db))
        case .user(let id):
            .user(try storedUser(id: id, db))
        case .userIDForQRCode(let code):
            .userID(try String.fetchOne(
                db.cachedStatement(sql: "SELECT id FROM users WHERE qr_code = ?"), arguments: [code]))
        case .notifications(let userID, let beforeID, let limit):
            .notifications(try notifications(userID: userID, beforeID: beforeID, limit: limit, db))
        case .pendingDeadlines:
            .deadlines(try rows("""
                SELECT id, check_in_deadline FROM users
                WHERE check_in_deadline IS NOT NULL AND is_non_responsive = 0
                """, [], db) { (userID: $0[0], deadline: $0[1]) })
        case .notification(let userID, let id):
            .notification(try rows("SELECT * FROM notifications WHERE id = ? AND user_id = ?", [id, userID], db,
                                   NotificationColumns.notification(from:)).first)
        }
    }

    static func storedUser(id: String, _ db: Database) throws -> StoredUser? {
        let found = try rows("SELECT * FROM users WHERE id = ?", [id], db) { row in
            (user: UserColumns.user(from: row), tokenHash: (row["token_hash"] as Data))
        }
        guard let (user, tokenHash) = found.first else { return nil }
        let devices = try rows(
            "SELECT device_id, platform, push_token, last_seen_at FROM devices WHERE user_id = ?", [id], db
        ) { row in
            DeviceRecord(key: DeviceKey(userID: id, deviceID: row["device_id"]), platform: row["platform"],
                         pushToken: row["push_token"], lastSeenAt: row["last_seen_at"])
        }
        let bounds = try rows(
            "SELECT min(seq) AS oldest, max(seq) AS newest FROM events WHERE user_id = ?", [id], db
        ) { row -> (oldest: Int64?, newest: Int64?) in (row["oldest"], row["newest"]) }.first
        let lastSeq: Int64 = bounds?.newest ?? 0
        let oldest: Int64 = bounds?.oldest ?? lastSeq + 1
        let ledger = try notificationLedger(of: id, db)
        return StoredUser(
            user: user, tokenHash: Array(tokenHash), devices: devices,
            lastSeq: lastSeq, oldestRetainedSeq: oldest, contacts: try contacts(of: id, db),
            recentNotifications: try notifications(userID: id, beforeID: nil, limit: NotificationWindow.capacity, db) ?? [Notification](),
            notificationCount: ledger.count, unreadCount: ledger.filter(\.isUnread).count,
            notificationLedger: ledger)
    }

    /// Every notification of the user, oldest first, from the index alone. As many as the history
    /// keeps: a load prunes it first (`Broker.load`).
    private static func notificationLedger(of userID: String, _ db: Database) throws -> [NotificationLedger.Entry] {
        let rows = try Row.fetchCursor(db.cachedStatement(sql: """
            SELECT id, is_read FROM notifications WHERE user_id = ? ORDER BY position
            """), arguments: [userID])
        var entries: [NotificationLedger.Entry] = []
        while let row = try rows.next() {
            entries.append(NotificationLedger.Entry(id: row[0], isUnread: !(row[1] as Bool)))
        }
        return entries
    }

    /// Each contact row joined with the contact's own user row, which the mirror is made of.
    private static func contacts(of userID: String, _ db: Database) throws
        -> [(record: ContactRecord, mirror: ContactMirror)]
    {
        try rows("""
            SELECT c.*, u.name, u.last_check_in_at, u.check_in_deadline, u.is_non_responsive,
                   u.alert_id, u.alert_started_at, u.alert_message
            FROM contacts c JOIN users u ON u.id = c.contact_id WHERE c.user_id = ?
            """, [userID], db
        ) { row in
            let record = ContactRecord(
                userID: userID, contactID: row["contact_id"], isResponder: row["is_responder"],
                isDependent: row["is_dependent"], addedAt: row["added_at"],
                incomingPing: pendingPing(id: row["incoming_ping_id"], at: row["incoming_ping_at"]),
                outgoingPing: pendingPing(id: row["outgoing_ping_id"], at: row["outgoing_ping_at"]))
            let alertID: String? = row["alert_id"]
            let mirror = ContactMirror(
                name: row["name"], lastCheckInAt: row["last_check_in_at"], checkInDeadline: row["check_in_deadline"],
                isNonResponsive: row["is_non_responsive"],
                alert: alertID.map { AlertInfo(id: $0, startedAt: row["alert_started_at"], message: row["alert_message"]) })
            return (record, mirror)
        }
    }

    private static func pendingPing(id: String?, at: Int64?) -> PendingPing? {
        guard let id, let at else { return nil }
        return PendingPing(id: id, sentAt: at)
    }

    private static func notifications(userID: String, beforeID: String?, limit: Int, _ db: Database) throws
        -> [Notification]?
    {
        var upperBound = Int64.max
        if let beforeID {
            guard let position = try Int64.fetchOne(
                db.cachedStatement(sql: "SELECT position FROM notifications WHERE id = ? AND user_id = ?"),
                arguments: [beforeID, userID]) else { return nil }
            upperBound = position
        }
        return try rows("""
            SELECT * FROM notifications WHERE user_id = ? AND position < ? ORDER BY position DESC LIMIT ?
            """, [userID, upperBound, limit], db, NotificationColumns.notification(from:))
    }

    /// Each row of a cached statement, mapped while the cursor is on it. Rows copied out
    /// (`fetchAll`, `fetchOne`) find a column by comparing every name lowercased, on every read;
    /// a cursor's row looks it up in the statement's index. A storm of hellos loads thousands of
    /// users, and those comparisons were a tenth of the broker's time (docs/BENCHMARKS.md).
    static func rows<T>(_ sql: String, _ arguments: StatementArguments, _ db: Database,
                        _ transform: (Row) throws -> T) throws -> [T]
    {
        let cursor = try Row.fetchCursor(db.cachedStatement(sql: sql), arguments: arguments)
        var mapped: [T] = []
        while let row = try cursor.next() { mapped.append(try transform(row)) }
        return mapped
    }

    /// The bodies of `(after, through]`, or nil if any of them has been pruned or their frames
    /// would take more than `maxBytes` (reading stops there).
    static func events(userID: String, after: Int64, through: Int64, maxBytes: Int, _ db: Database) throws
        -> [[UInt8]]?
    {
        guard through > after else { return [] }
        let rows = try Row.fetchCursor(
            db.cachedStatement(
                sql: "SELECT seq, body FROM events WHERE user_id = ? AND seq > ? AND seq <= ? ORDER BY seq"),
            arguments: [userID, after, through])
        var bodies: [[UInt8]] = []
        var expected = after + 1
        var frameBytes = 0
        while let row = try rows.next() {
            let seq: Int64 = row["seq"]
            guard seq == expected else { return nil }
            let body: Data = row["body"]
            frameBytes += 4 + body.count
            guard frameBytes <= maxBytes else { return nil }
            bodies.append(Array(body))
            expected += 1
        }
        return expected == through + 1 ? bodies : nil
    }
}

/// Rows of `notifications` back into documents.
enum NotificationColumns {
    static func notification(from row: Row) -> Notification {
        let contactData: String? = row["contact_data"]
        let alertData: String? = row["alert_data"]
        return Notification(
            id: row["id"],
            type: NotificationType(rawValue: row["type"]) ?? .added,
            title: row["title"],
            message: row["message"],
            timestamp: row["timestamp"],
            isRead: row["is_read"],
            relatedContactID: row["related_contact_id"],
            relatedAlertID: row["related_alert_id"],
            relatedPingID: row["related_ping_id"],
            contactData: contactData.flatMap { text in
                (try? JSONValue.parse(Array(text.utf8))).flatMap { try? ContactData(json: $0) }
            },
            alertData: alertData.flatMap { text in
                (try? JSONValue.parse(Array(text.utf8))).flatMap { try? AlertInfo(json: $0) }
            })
    }
}
