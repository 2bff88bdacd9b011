import Foundation
import GRDB

/// Queries the broker needs; each runs inside a read or the writer's transaction.
enum SQLiteReads {
    static func storedUser(id: String, _ db: Database) throws -> StoredUser? {
        guard let row = try Row.fetchOne(db, sql: "SELECT * FROM users WHERE id = ?", arguments: [id]) else {
            return nil
        }
        let devices = try Row.fetchAll(
            db, sql: "SELECT device_id, platform, push_token, last_seen_at FROM devices WHERE user_id = ?",
            arguments: [id]
        ).map { row in
            DeviceRecord(key: DeviceKey(userID: id, deviceID: row["device_id"]), platform: row["platform"],
                         pushToken: row["push_token"], lastSeenAt: row["last_seen_at"])
        }
        let bounds = try Row.fetchOne(
            db, sql: "SELECT min(seq) AS oldest, max(seq) AS newest FROM events WHERE user_id = ?", arguments: [id])
        let lastSeq: Int64 = bounds?["newest"] ?? 0
        let oldest: Int64 = bounds?["oldest"] ?? lastSeq + 1
        let tokenHash: Data = row["token_hash"]
        return StoredUser(user: UserColumns.user(from: row), tokenHash: Array(tokenHash), devices: devices,
                          lastSeq: lastSeq, oldestRetainedSeq: oldest)
    }

    /// The bodies of `(afterSeq, throughSeq]`, or nil if any of them has been pruned.
    static func events(_ read: CatchUpRead, _ db: Database) throws -> [[UInt8]]? {
        guard read.throughSeq > read.afterSeq else { return [] }
        let rows = try Row.fetchCursor(
            db, sql: "SELECT seq, body FROM events WHERE user_id = ? AND seq > ? AND seq <= ? ORDER BY seq",
            arguments: [read.userID, read.afterSeq, read.throughSeq])
        var bodies: [[UInt8]] = []
        var expected = read.afterSeq + 1
        while let row = try rows.next() {
            let seq: Int64 = row["seq"]
            guard seq == expected else { return nil }
            let body: [UInt8] = (row["body"] as Data).withUnsafeBytes { Array($0) }
            bodies.append(body)
            expected += 1
        }
        return expected == read.throughSeq + 1 ? bodies : nil
    }
}
