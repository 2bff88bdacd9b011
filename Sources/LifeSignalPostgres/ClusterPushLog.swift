import LifeSignalPush
import LifeSignalUV
import Logging
import PostgresNIO

/// The pushes a cluster has recorded and its users' names, read from PostgreSQL for
/// `lsbroker pushes --postgres` and `lsbroker users --postgres` (the cluster's `PushLog` and user
/// directory). Blocking calls,
/// for a command-line tool; reads only.
public final class ClusterPushLog {
    package let database: ClusterDatabase
    package let logger: Logger

    public init(url text: String, logger: Logger) throws {
        let url = try PostgresURL(parsing: text)
        database = try waitFor { try await ClusterDatabase.open(url, logger: logger) }
        self.logger = logger
    }

    deinit {
        let database = self.database
        waitFor { await database.close() }
    }

    /// The newest `limit` pushes (all when nil), oldest first.
    public func latest(userID: String?, limit: Int?) throws -> [RecordedPush] {
        try select(userID: userID, after: nil, newestFirst: true, limit: limit).reversed()
    }

    /// Pushes recorded after `position`, oldest first, at most `limit`.
    public func after(_ position: Int64, userID: String?, limit: Int) throws -> [RecordedPush] {
        try select(userID: userID, after: position, newestFirst: false, limit: limit)
    }

    /// Every user, oldest first.
    public func everyUser() throws -> [(id: String, name: String)] {
        try rows("SELECT id, name FROM users ORDER BY created_at, id") { try $0.decode((String, String).self) }
    }

    public func name(of id: String) throws -> String? {
        try rows("SELECT name FROM users WHERE id = \(id)") { try $0.decode(String.self) }.first
    }

    private func select(userID: String?, after position: Int64?, newestFirst: Bool, limit: Int?) throws
        -> [RecordedPush]
    {
        let order = newestFirst ? "DESC" : "ASC"
        return try rows("""
            SELECT position, user_id, device_id, token, notification_id, body, created_at FROM pushes
            WHERE (\(userID)::text IS NULL OR user_id = \(userID)) AND position > \(position ?? 0)
            ORDER BY position \(unescaped: order) LIMIT \(Int64(limit ?? Int(Int32.max)))
            """) { row in
            let (position, userID, deviceID, token, notificationID, body, createdAt) =
                try row.decode((Int64, String, String, String, String, String, Int64).self)
            return RecordedPush(position: position, push: PushMessage(
                userID: userID, deviceID: deviceID, token: token, notificationID: notificationID,
                body: Array(body.utf8), createdAt: createdAt))
        }
    }

    package func rows<T: Sendable>(_ query: PostgresQuery, _ decode: @escaping @Sendable (PostgresRow) throws -> T)
        throws -> [T]
    {
        let (database, logger) = (self.database, self.logger)
        return try waitFor {
            try await database.withConnection { connection in
                var values: [T] = []
                for try await row in try await connection.query(query, logger: logger) { values.append(try decode(row)) }
                return values
            }
        }
    }
}
