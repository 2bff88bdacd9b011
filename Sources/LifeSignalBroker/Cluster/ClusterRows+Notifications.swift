import LifeSignalProtocol
import PostgresNIO

extension ClusterRows {
    /// A user's newest notifications, newest first.
    static func newestNotifications(of userID: String, limit: Int, on connection: PostgresConnection, logger: Logger)
        async throws -> [LifeSignalProtocol.Notification]
    {
        var notifications: [LifeSignalProtocol.Notification] = []
        let rows = try await connection.query("""
            SELECT id, type, title, message, timestamp, is_read, related_contact_id, related_alert_id,
                   related_ping_id, contact_data, alert_data
            FROM notifications WHERE user_id = \(userID) ORDER BY position DESC LIMIT \(Int64(limit))
            """, logger: logger)
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

    static func unreadCount(of userID: String, on connection: PostgresConnection, logger: Logger) async throws -> Int {
        var count: Int64 = 0
        let rows = try await connection.query(
            "SELECT count(*) FROM notifications WHERE user_id = \(userID) AND NOT is_read", logger: logger)
        for try await value in rows.decode(Int64.self) { count = value }
        return Int(count)
    }
}
