import LifeSignalProtocol
import PostgresNIO

/// Reading and writing the rows the rules need, on one connection inside a transaction.
enum ClusterRows {
    /// The accounts of `ids` that exist: each user's document and their side of each relationship.
    static func accounts(_ ids: [String], on connection: PostgresConnection, logger: Logger) async throws
        -> [Account]
    {
        var users: [String: User] = [:]
        let userRows = try await connection.query("""
            SELECT id, name, phone, qr_code, check_in_interval_sec, last_check_in_at, check_in_deadline,
                   is_non_responsive, alert_id, alert_started_at, alert_message, push_enabled, muted_types, created_at
            FROM users WHERE id = ANY(\(ids))
            """, logger: logger)
        for try await row in userRows {
            let user = try user(from: row.makeRandomAccess())
            users[user.id] = user
        }
        var contacts: [String: [String: ContactRecord]] = [:]
        let contactRows = try await connection.query("""
            SELECT user_id, contact_id, is_responder, is_dependent, added_at,
                   incoming_ping_id, incoming_ping_at, outgoing_ping_id, outgoing_ping_at
            FROM contacts WHERE user_id = ANY(\(ids))
            """, logger: logger)
        for try await row in contactRows {
            let record = try contact(from: row.makeRandomAccess())
            contacts[record.userID, default: [:]][record.contactID] = record
        }
        return users.values.map { Account(user: $0, contacts: contacts[$0.id] ?? [:]) }
    }

    private static func user(from row: PostgresRandomAccessRow) throws -> User {
        let alertID = try row["alert_id"].decode(String?.self)
        let muted = try row["muted_types"].decode(String.self)
        return User(
            id: try row["id"].decode(String.self), name: try row["name"].decode(String.self),
            phone: try row["phone"].decode(String?.self), qrCode: try row["qr_code"].decode(String.self),
            checkInIntervalSec: try row["check_in_interval_sec"].decode(Int64.self),
            lastCheckInAt: try row["last_check_in_at"].decode(Int64?.self),
            checkInDeadline: try row["check_in_deadline"].decode(Int64?.self),
            isNonResponsive: try row["is_non_responsive"].decode(Bool.self),
            alert: try alertID.map {
                AlertInfo(id: $0, startedAt: try row["alert_started_at"].decode(Int64.self),
                          message: try row["alert_message"].decode(String?.self))
            },
            preferences: Preferences(
                push: try row["push_enabled"].decode(Bool.self),
                mutedTypes: muted.split(separator: ",").compactMap { NotificationType(rawValue: String($0)) }),
            createdAt: try row["created_at"].decode(Int64.self))
    }

    private static func contact(from row: PostgresRandomAccessRow) throws -> ContactRecord {
        func ping(_ prefix: String) throws -> PendingPing? {
            guard let id = try row["\(prefix)_ping_id"].decode(String?.self) else { return nil }
            return PendingPing(id: id, sentAt: try row["\(prefix)_ping_at"].decode(Int64.self))
        }
        return ContactRecord(
            userID: try row["user_id"].decode(String.self), contactID: try row["contact_id"].decode(String.self),
            isResponder: try row["is_responder"].decode(Bool.self), isDependent: try row["is_dependent"].decode(Bool.self),
            addedAt: try row["added_at"].decode(Int64.self), incomingPing: try ping("incoming"),
            outgoingPing: try ping("outgoing"))
    }

    static func insert(_ user: User, tokenHash: [UInt8], on connection: PostgresConnection, logger: Logger)
        async throws
    {
        try await connection.query("""
            INSERT INTO users (id, name, phone, qr_code, token_hash, check_in_interval_sec, created_at)
            VALUES (\(user.id), \(user.name), \(user.phone), \(user.qrCode), \(ByteBuffer(bytes: tokenHash)),
                    \(user.checkInIntervalSec), \(user.createdAt))
            """, logger: logger).drain()
        try await update(user, on: connection, logger: logger)
    }

    /// Writes one change a rule made. Rules make only these; the rest belong to other paths.
    static func apply(_ change: StoreChange, on connection: PostgresConnection, logger: Logger) async throws {
        switch change {
        case .updateUser(let user):
            try await update(user, on: connection, logger: logger)
        case .upsertContact(let record):
            try await connection.query("""
                INSERT INTO contacts (user_id, contact_id, is_responder, is_dependent, added_at,
                                      incoming_ping_id, incoming_ping_at, outgoing_ping_id, outgoing_ping_at)
                VALUES (\(record.userID), \(record.contactID), \(record.isResponder), \(record.isDependent),
                        \(record.addedAt), \(record.incomingPing?.id), \(record.incomingPing?.sentAt),
                        \(record.outgoingPing?.id), \(record.outgoingPing?.sentAt))
                ON CONFLICT (user_id, contact_id) DO UPDATE SET
                    is_responder = excluded.is_responder, is_dependent = excluded.is_dependent,
                    incoming_ping_id = excluded.incoming_ping_id, incoming_ping_at = excluded.incoming_ping_at,
                    outgoing_ping_id = excluded.outgoing_ping_id, outgoing_ping_at = excluded.outgoing_ping_at
                """, logger: logger).drain()
        case .deleteContact(let userID, let contactID):
            try await connection.query(
                "DELETE FROM contacts WHERE user_id = \(userID) AND contact_id = \(contactID)", logger: logger).drain()
        case .setNotificationRead(let id):
            try await connection.query("UPDATE notifications SET is_read = true WHERE id = \(id)", logger: logger).drain()
        case .markAllNotificationsRead(let userID):
            try await connection.query(
                "UPDATE notifications SET is_read = true WHERE user_id = \(userID) AND NOT is_read", logger: logger).drain()
        case .deleteNotification(let id):
            try await connection.query("DELETE FROM pushes WHERE notification_id = \(id)", logger: logger).drain()
            try await connection.query("DELETE FROM notifications WHERE id = \(id)", logger: logger).drain()
        default:
            throw ProtocolError(.internal, "the cluster store does not write \(change) from a rule")
        }
    }

    private static func update(_ user: User, on connection: PostgresConnection, logger: Logger) async throws {
        let muted = user.preferences.mutedTypes.map(\.rawValue).joined(separator: ",")
        try await connection.query("""
            UPDATE users SET name = \(user.name), phone = \(user.phone), qr_code = \(user.qrCode),
                check_in_interval_sec = \(user.checkInIntervalSec), last_check_in_at = \(user.lastCheckInAt),
                check_in_deadline = \(user.checkInDeadline), is_non_responsive = \(user.isNonResponsive),
                alert_id = \(user.alert?.id), alert_started_at = \(user.alert?.startedAt),
                alert_message = \(user.alert?.message), push_enabled = \(user.preferences.push), muted_types = \(muted)
            WHERE id = \(user.id)
            """, logger: logger).drain()
    }

    /// Returns the notification's position in the history.
    static func insert(_ notification: LifeSignalProtocol.Notification, for userID: String,
                       on connection: PostgresConnection, logger: Logger) async throws -> Int64 {
        let contactData = notification.contactData.map { String(decoding: $0.json.serialized(), as: UTF8.self) }
        let alertData = notification.alertData.map { String(decoding: $0.json.serialized(), as: UTF8.self) }
        let rows = try await connection.query("""
            INSERT INTO notifications (id, user_id, type, title, message, timestamp, is_read, related_contact_id,
                                       related_alert_id, related_ping_id, contact_data, alert_data)
            VALUES (\(notification.id), \(userID), \(notification.type.rawValue), \(notification.title),
                    \(notification.message), \(notification.timestamp), \(notification.isRead),
                    \(notification.relatedContactID), \(notification.relatedAlertID), \(notification.relatedPingID),
                    \(contactData), \(alertData))
            RETURNING position
            """, logger: logger)
        var position: Int64 = 0
        for try await value in rows.decode(Int64.self) { position = value }
        return position
    }

    /// Takes `count` seqs from the user's head row; returns the first.
    static func takeSeqs(_ count: Int, of userID: String, on connection: PostgresConnection, logger: Logger)
        async throws -> Int64
    {
        let rows = try await connection.query(
            "UPDATE users SET seq = seq + \(Int64(count)) WHERE id = \(userID) RETURNING seq", logger: logger)
        var last: Int64?
        for try await seq in rows.decode(Int64.self) { last = seq }
        guard let last else { throw ProtocolError(.internal, "user \(userID) has no head row") }
        return last - Int64(count) + 1
    }

    /// One statement for all of a user's new events.
    static func appendEvents(_ frames: [(seq: Int64, body: String)], of userID: String,
                             on connection: PostgresConnection, logger: Logger) async throws {
        let seqs = frames.map(\.seq)
        let bodies = frames.map(\.body)
        try await connection.query("""
            INSERT INTO events (user_id, seq, body) SELECT \(userID), s, b FROM unnest(\(seqs)::bigint[], \(bodies)::text[]) AS e(s, b)
            """, logger: logger).drain()
    }
}

extension PostgresRowSequence {
    /// Reads to the end, so the connection is free for the next statement.
    func drain() async throws { for try await _ in self {} }
}
