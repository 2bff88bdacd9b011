import Foundation
import GRDB
import LifeSignalPush

/// The pushes the broker has recorded, read straight from its SQLite file with a read-only
/// connection: WAL lets it read while the broker writes (`lsbroker pushes`).
public final class PushLog {
    public typealias Entry = RecordedPush

    public struct Missing: Error, CustomStringConvertible {
        public let description: String
    }

    private let queue: DatabaseQueue

    public init(directory: String) throws {
        let path = SQLiteStore.path(in: directory)
        guard FileManager.default.fileExists(atPath: path) else {
            throw Missing(description: "no broker store at \(path)")
        }
        var configuration = Configuration()
        configuration.readonly = true
        configuration.busyMode = .timeout(5)
        queue = try DatabaseQueue(path: path, configuration: configuration)
    }

    /// The newest `limit` pushes (all when nil), oldest first.
    public func latest(userID: String?, limit: Int?) throws -> [Entry] {
        try queue.read { db in
            let newest = try Self.select(db, userID: userID, after: nil, newestFirst: true, limit: limit)
            return newest.reversed()
        }
    }

    /// Pushes recorded after `position`, oldest first, at most `limit`.
    public func after(_ position: Int64, userID: String?, limit: Int) throws -> [Entry] {
        try queue.read { db in try Self.select(db, userID: userID, after: position, newestFirst: false, limit: limit) }
    }

    private static func select(
        _ db: Database, userID: String?, after position: Int64?, newestFirst: Bool, limit: Int?
    ) throws -> [Entry] {
        var conditions: [String] = []
        var arguments: StatementArguments = []
        if let userID {
            conditions.append("user_id = ?")
            arguments += [userID]
        }
        if let position {
            conditions.append("position > ?")
            arguments += [position]
        }
        var sql = "SELECT position, user_id, device_id, token, notification_id, body, created_at FROM pushes"
        if !conditions.isEmpty { sql += " WHERE " + conditions.joined(separator: " AND ") }
        sql += newestFirst ? " ORDER BY position DESC" : " ORDER BY position"
        if let limit {
            sql += " LIMIT ?"
            arguments += [limit]
        }
        return try Row.fetchAll(db, sql: sql, arguments: arguments).map { row in
            let body: String = row["body"]
            return Entry(position: row["position"], push: PushMessage(
                userID: row["user_id"], deviceID: row["device_id"], token: row["token"],
                notificationID: row["notification_id"], body: Array(body.utf8), createdAt: row["created_at"]))
        }
    }
}
