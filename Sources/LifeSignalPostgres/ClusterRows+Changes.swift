import LifeSignalEngine
import LifeSignalProtocol
import PostgresNIO

extension ClusterRows {
    /// Writes one change on its own, as `SQLiteWrites` does in the embedded store; `commit`
    /// gathers contact rows, events, notifications and pushes into one statement instead.
    package static func apply(_ change: StoreChange, on connection: PostgresConnection, logger: Logger) async throws {
        switch change {
        case .createUser(let user, let tokenHash):
            try await insert(user, tokenHash: tokenHash, on: connection, logger: logger)
        case .updateUser(let user):
            try await update(user, on: connection, logger: logger)
        case .upsertDevice(let device):
            try await connection.query("""
                INSERT INTO devices (user_id, device_id, platform, push_token, last_seen_at)
                VALUES (\(device.key.userID), \(device.key.deviceID), \(device.platform), \(device.pushToken),
                        \(device.lastSeenAt))
                ON CONFLICT (user_id, device_id) DO UPDATE SET platform = excluded.platform,
                    push_token = excluded.push_token, last_seen_at = excluded.last_seen_at
                """, logger: logger).drain()
        case .deleteDevice(let key):
            try await connection.query(
                "DELETE FROM devices WHERE user_id = \(key.userID) AND device_id = \(key.deviceID)", logger: logger).drain()
        case .movePushToken(let token, let owner):
            try await connection.query("""
                UPDATE devices SET push_token = NULL
                WHERE push_token = \(token) AND NOT (user_id = \(owner.userID) AND device_id = \(owner.deviceID))
                """, logger: logger).drain()
        case .appendEvent(let userID, let seq, let body):
            let text = String(decoding: body, as: UTF8.self)
            try await connection.query(
                "INSERT INTO events (user_id, seq, body) VALUES (\(userID), \(seq), \(text))", logger: logger).drain()
            try await connection.query(
                "UPDATE users SET seq = greatest(seq, \(seq)) WHERE id = \(userID)", logger: logger).drain()
        case .pruneEvents(let userID, let throughSeq):
            try await connection.query("""
                UPDATE users SET oldest_retained_seq = greatest(oldest_retained_seq, \(throughSeq + 1))
                WHERE id = \(userID)
                """, logger: logger).drain()
            try await connection.query(
                "DELETE FROM events WHERE user_id = \(userID) AND seq <= \(throughSeq)", logger: logger).drain()
        case .upsertContact(let record):
            try await upsert([record], on: connection, logger: logger)
        case .deleteContact(let userID, let contactID):
            try await connection.query(
                "DELETE FROM contacts WHERE user_id = \(userID) AND contact_id = \(contactID)", logger: logger).drain()
        case .insertNotification(let userID, let notification):
            var additions = Additions()
            additions.notifications = [(userID, notification)]
            _ = try await write(additions, on: connection, logger: logger)
        case .pruneNotifications(let userID, let keepNewest):
            try await keepNewestNotifications(keepNewest, of: userID, on: connection, logger: logger)
        case .setNotificationRead(let id):
            try await connection.query("UPDATE notifications SET is_read = true WHERE id = \(id)", logger: logger).drain()
        case .markAllNotificationsRead(let userID):
            try await connection.query(
                "UPDATE notifications SET is_read = true WHERE user_id = \(userID) AND NOT is_read", logger: logger).drain()
        case .deleteNotification(let id):
            try await connection.query("DELETE FROM pushes WHERE notification_id = \(id)", logger: logger).drain()
            try await connection.query("DELETE FROM notifications WHERE id = \(id)", logger: logger).drain()
        case .recordPush(let push):
            var additions = Additions()
            additions.pushes = [push]
            _ = try await write(additions, on: connection, logger: logger)
        }
    }
}
