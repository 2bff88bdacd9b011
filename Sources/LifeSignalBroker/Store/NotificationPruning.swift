import GRDB

/// Keeps a user's newest notifications and deletes the rest with the pushes recorded for them
/// (`notificationHistory`, §10). Each statement walks at most `count` entries of the index by
/// user, and the broker asks once per prune step (64 notifications) and once per load.
enum NotificationPruning {
    static func keepNewest(_ count: Int, of userID: String, _ db: Database) throws {
        guard count > 0, let oldestKept = try Int64.fetchOne(db.cachedStatement(sql: """
            SELECT position FROM notifications WHERE user_id = ? ORDER BY position DESC LIMIT 1 OFFSET ?
            """), arguments: [userID, count - 1]) else { return }
        try db.cachedStatement(sql: """
            DELETE FROM pushes WHERE notification_id IN
                (SELECT id FROM notifications WHERE user_id = ? AND position < ?)
            """).execute(arguments: [userID, oldestKept])
        try db.cachedStatement(sql: "DELETE FROM notifications WHERE user_id = ? AND position < ?")
            .execute(arguments: [userID, oldestKept])
    }
}
