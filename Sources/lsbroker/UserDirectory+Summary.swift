import GRDB
import LifeSignalBroker
import LifeSignalEngine

extension UserDirectory {
    /// `lsbroker users --data-dir`: one user's summary, or nil for an id the store does not know.
    /// Online state is unknown here: only the running broker knows (`RunningBroker`).
    func summary(of userID: String) throws -> UserSummary? {
        try queue.read { db in
            guard let user = try Row.fetchOne(db, sql: "SELECT name, created_at FROM users WHERE id = ?",
                                              arguments: [userID]) else { return nil }
            // The head is the newest event kept: retention prunes the oldest only.
            let seq = try Int64.fetchOne(db, sql: "SELECT max(seq) FROM events WHERE user_id = ?", arguments: [userID])
            let contacts = try Row.fetchOne(db, sql: """
                SELECT total(is_responder), total(is_dependent) FROM contacts WHERE user_id = ?
                """, arguments: [userID])
            let notifications = try Row.fetchOne(db, sql: """
                SELECT count(*), total(is_read = 0) FROM notifications WHERE user_id = ?
                """, arguments: [userID])
            let devices = try Row.fetchAll(db, sql: """
                SELECT device_id, platform, push_token IS NOT NULL AS has_token, last_seen_at
                FROM devices WHERE user_id = ? ORDER BY device_id
                """, arguments: [userID]).map { row in
                UserSummary.Device(id: row["device_id"], platform: row["platform"], hasToken: row["has_token"],
                                   lastSeenAt: row["last_seen_at"], online: .unknown)
            }
            return UserSummary(
                id: userID, name: user["name"], createdAt: user["created_at"], seq: seq ?? 0,
                responders: Int(contacts?[0] as Double? ?? 0), dependents: Int(contacts?[1] as Double? ?? 0),
                notifications: notifications?[0] ?? 0, unread: Int(notifications?[1] as Double? ?? 0), devices: devices)
        }
    }
}
