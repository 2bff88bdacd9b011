import GRDB

/// Keeps a user's newest notifications and deletes the rest with the pushes recorded for them
/// (`notificationHistory`, §10). Each statement walks at most `count` entries of the index by
/// user, and the broker asks once per prune step (64 notifications) and once per load; the
/// first statement usually finds nothing to delete, so it is the one prepared.
package struct NotificationPruning {
    private let oldestKept: DirectStatement

    /// Prepares the statement on the writer's connection, which it must only be used with.
    package init(_ db: Database) throws {
        oldestKept = try DirectStatement(db, sql: """
            SELECT position FROM notifications WHERE user_id = ? ORDER BY position DESC LIMIT 1 OFFSET ?
            """)
    }

    package func keepNewest(_ count: Int, of userID: String, _ db: Database) throws {
        guard count > 0,
              let position = try oldestKept.rows(db, { $0.add(userID); $0.add(Int64(count - 1)) }, { $0.int64(0) }).first
        else { return }
        try db.cachedStatement(sql: """
            DELETE FROM pushes WHERE notification_id IN
                (SELECT id FROM notifications WHERE user_id = ? AND position < ?)
            """).execute(arguments: [userID, position])
        try db.cachedStatement(sql: "DELETE FROM notifications WHERE user_id = ? AND position < ?")
            .execute(arguments: [userID, position])
    }
}
