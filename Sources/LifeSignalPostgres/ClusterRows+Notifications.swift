import LifeSignalProtocol
import PostgresNIO

/// A user's history is their newest `history` notifications (§10): older rows are deleted about
/// once per 64 notifications (`keepNewestNotifications`), and until then every read leaves them
/// out, so what a user sees is exactly the newest `history` (0: all).
extension ClusterRows {
    /// A user's newest notifications, newest first.
    package static func newestNotifications(of userID: String, limit: Int, history: Int, on connection: PostgresConnection,
                                    logger: Logger) async throws -> [LifeSignalProtocol.Notification]
    {
        try await notifications(of: userID, before: nil, limit: limit, history: history, on: connection, logger: logger)!
    }

    /// The lowest position in the user's history, or 0 when it holds no more than `history`.
    package static func historyFloor(of userID: String, history: Int, on connection: PostgresConnection,
                                     logger: Logger) async throws -> Int64 {
        guard history > 0 else { return 0 }
        var floor: Int64 = 0
        let rows = try await connection.query("""
            SELECT position FROM notifications WHERE user_id = \(userID)
            ORDER BY position DESC LIMIT 1 OFFSET \(Int64(history - 1))
            """, logger: logger)
        for try await position in rows.decode(Int64.self) { floor = position }
        return floor
    }

    /// A page of the user's notifications, newest first, older than the one `before` names;
    /// nil when the user has no notification of that id.
    package static func notifications(of userID: String, before beforeID: String?, limit: Int, history: Int,
                              on connection: PostgresConnection, logger: Logger) async throws
        -> [LifeSignalProtocol.Notification]?
    {
        let floor = try await historyFloor(of: userID, history: history, on: connection, logger: logger)
        var below = Int64.max
        if let beforeID {
            guard let position = try await position(of: beforeID, userID: userID, on: connection, logger: logger),
                  position >= floor else {
                return nil
            }
            below = position
        }
        return try await decoded(connection.query("""
            SELECT \(unescaped: columns) FROM notifications
            WHERE user_id = \(userID) AND position < \(below) AND position >= \(floor)
            ORDER BY position DESC LIMIT \(Int64(limit))
            """, logger: logger))
    }

    /// The user's newest notifications made at or after `since` (ms), newest first.
    package static func notifications(of userID: String, since: Int64, limit: Int, on connection: PostgresConnection,
                              logger: Logger) async throws -> [LifeSignalProtocol.Notification]
    {
        try await decoded(connection.query("""
            SELECT \(unescaped: columns) FROM notifications
            WHERE user_id = \(userID) AND timestamp >= \(since)
            ORDER BY position DESC LIMIT \(Int64(limit))
            """, logger: logger))
    }

    /// The user's notification of that id (someone else's is nil, like an unknown one).
    package static func notification(_ id: String, of userID: String, history: Int, on connection: PostgresConnection,
                             logger: Logger) async throws -> LifeSignalProtocol.Notification?
    {
        let floor = try await historyFloor(of: userID, history: history, on: connection, logger: logger)
        return try await decoded(connection.query("""
            SELECT \(unescaped: columns) FROM notifications
            WHERE id = \(id) AND user_id = \(userID) AND position >= \(floor)
            """, logger: logger)).first
    }

    private static func position(of id: String, userID: String, on connection: PostgresConnection, logger: Logger)
        async throws -> Int64?
    {
        var position: Int64?
        let rows = try await connection.query(
            "SELECT position FROM notifications WHERE id = \(id) AND user_id = \(userID)", logger: logger)
        for try await value in rows.decode(Int64.self) { position = value }
        return position
    }

    private static let columns = """
        id, type, title, message, timestamp, is_read, related_contact_id, related_alert_id, related_ping_id,
        contact_data, alert_data
        """

    private static func decoded(_ rows: PostgresRowSequence) async throws -> [LifeSignalProtocol.Notification] {
        var notifications: [LifeSignalProtocol.Notification] = []
        for try await row in rows {
            let cells = row.makeRandomAccess()
            let contactData = try cells["contact_data"].decode(String?.self)
            let alertData = try cells["alert_data"].decode(String?.self)
            notifications.append(LifeSignalProtocol.Notification(
                id: try cells["id"].decode(String.self),
                type: NotificationType(rawValue: try cells["type"].decode(String.self)) ?? .added,
                title: try cells["title"].decode(String.self), message: try cells["message"].decode(String.self),
                timestamp: try cells["timestamp"].decode(Int64.self), isRead: try cells["is_read"].decode(Bool.self),
                relatedContactID: try cells["related_contact_id"].decode(String?.self),
                relatedAlertID: try cells["related_alert_id"].decode(String?.self),
                relatedPingID: try cells["related_ping_id"].decode(String?.self),
                contactData: contactData.flatMap { (try? JSONValue.parse(Array($0.utf8))).flatMap { try? ContactData(json: $0) } },
                alertData: alertData.flatMap { (try? JSONValue.parse(Array($0.utf8))).flatMap { try? AlertInfo(json: $0) } }))
        }
        return notifications
    }

    package static func unreadCount(of userID: String, history: Int, on connection: PostgresConnection, logger: Logger)
        async throws -> Int
    {
        let floor = try await historyFloor(of: userID, history: history, on: connection, logger: logger)
        var count: Int64 = 0
        let rows = try await connection.query("""
            SELECT count(*) FROM notifications WHERE user_id = \(userID) AND NOT is_read AND position >= \(floor)
            """, logger: logger)
        for try await value in rows.decode(Int64.self) { count = value }
        return Int(count)
    }
}
