import LifeSignalProtocol
import LifeSignalRules
import PostgresNIO

/// What a device reads and the device rows it changes, outside the rules: no event follows any
/// of these, so none takes a seq.
extension ClusterExecutor {
    /// `contacts.list`: every contact as `userID` sees them now.
    public func contactViews(of userID: String) async throws -> [Contact] {
        let logger = self.logger
        return try await database.withConnection { connection in
            guard let account = try await ClusterRows.accounts([userID], on: connection, logger: logger).first else {
                throw ProtocolError(.unauthenticated, "unknown user")
            }
            return try await ClusterRows.contactViews(of: account, on: connection, logger: logger)
        }
    }

    /// `devices.list`: online means held by a live broker of the cluster.
    public func deviceInfos(of userID: String) async throws -> [DeviceInfo] {
        let logger = self.logger
        return try await database.withConnection { connection in
            try await ClusterRows.deviceInfos(of: userID, on: connection, logger: logger)
        }
    }

    /// `notifications.list`: a page, newest first, with the unread count; nil when `before`
    /// names no notification of the user.
    public func notificationPage(of userID: String, before: String?, limit: Int) async throws
        -> (notifications: [LifeSignalProtocol.Notification], unread: Int)?
    {
        let (logger, history) = (self.logger, notificationHistory)
        return try await database.withConnection { connection in
            guard let page = try await ClusterRows.notifications(of: userID, before: before, limit: limit, history: history,
                                                                 on: connection, logger: logger) else { return nil }
            return (page, try await ClusterRows.unreadCount(of: userID, history: history, on: connection, logger: logger))
        }
    }

    /// The head seq of each of `userIDs` now: what a broker checks its devices against, in case a
    /// hint was lost (ARCHITECTURE.md, "The cluster").
    public func heads(of userIDs: [String]) async throws -> [String: Int64] {
        let rows = try await collect("SELECT id, seq FROM users WHERE id = ANY(\(userIDs))") {
            try $0.decode((String, Int64).self)
        }
        return Dictionary(rows, uniquingKeysWith: { first, _ in first })
    }

    /// Says this broker is alive (its presence rows count while it does).
    public func heartbeat(brokerID: String) async throws {
        try await execute("""
            INSERT INTO brokers (broker_id) VALUES (\(brokerID))
            ON CONFLICT (broker_id) DO UPDATE SET heartbeat_at = now()
            """)
    }

    /// Forgets every device this broker held: at start (a previous run's, killed) and at a clean stop.
    public func clearPresence(brokerID: String) async throws {
        try await execute("DELETE FROM presence WHERE broker_id = \(brokerID)")
    }

    /// A committed write through a pooled connection, this broker's heartbeat: what `/readyz`
    /// asks of the cluster's store (a plain read would pass while commits fail).
    public func probeCommit(brokerID: String) async throws {
        try await Self.unwrapped { try await database.withTransaction(logger: logger) { [logger] connection in
            try await connection.query("""
                INSERT INTO brokers (broker_id) VALUES (\(brokerID))
                ON CONFLICT (broker_id) DO UPDATE SET heartbeat_at = now()
                """, logger: logger).drain()
        } }
    }

    /// A hint to every broker (ARCHITECTURE.md, "The cluster"): `payload` names users and their new
    /// head seqs.
    public func notify(_ payload: String) async throws {
        try await execute("SELECT pg_notify(\(ClusterHints.channel), \(payload))")
    }
}
