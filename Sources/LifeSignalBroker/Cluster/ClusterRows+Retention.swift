import LifeSignalProtocol
import PostgresNIO

extension ClusterRows {
    /// Keeps the newest `retention` events of a user for `resume` (§6), deleting in steps of 64
    /// so that retention costs one DELETE per 64 events, as in the embedded store. `head` is the
    /// new head, `oldestRetained` the oldest kept as read under the user's lock.
    static func pruneEvents(of userID: String, head: Int64, oldestRetained: Int64, retention: Int,
                            on connection: PostgresConnection, logger: Logger) async throws {
        let pruneThrough = head - Int64(retention)
        guard pruneThrough - oldestRetained >= 63 else { return }
        try await connection.query(
            "UPDATE users SET oldest_retained_seq = \(pruneThrough + 1) WHERE id = \(userID)", logger: logger).drain()
        try await connection.query(
            "DELETE FROM events WHERE user_id = \(userID) AND seq <= \(pruneThrough)", logger: logger).drain()
    }

    /// Keeps a user's newest `count` notifications with their pushes (§10). Asked when a
    /// notification's position is a multiple of 64, so about once per 64 notifications.
    static func keepNewestNotifications(_ count: Int, of userID: String, on connection: PostgresConnection,
                                        logger: Logger) async throws {
        let oldestKept = try await historyFloor(of: userID, history: count, on: connection, logger: logger)
        guard oldestKept > 0 else { return }
        try await connection.query("""
            DELETE FROM pushes WHERE notification_id IN
                (SELECT id FROM notifications WHERE user_id = \(userID) AND position < \(oldestKept))
            """, logger: logger).drain()
        try await connection.query(
            "DELETE FROM notifications WHERE user_id = \(userID) AND position < \(oldestKept)", logger: logger).drain()
    }
}
