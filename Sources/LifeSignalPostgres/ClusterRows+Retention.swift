import LifeSignalProtocol
import PostgresNIO

extension ClusterRows {
    /// Keeps a user's newest `count` notifications with their pushes (§10). Asked when a
    /// notification's position is a multiple of 64, so about once per 64 notifications.
    package static func keepNewestNotifications(_ count: Int, of userID: String, on connection: PostgresConnection,
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
