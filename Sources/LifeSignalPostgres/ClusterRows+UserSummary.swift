import LifeSignalEngine
import PostgresNIO

extension ClusterRows {
    /// `lsbroker users --postgres`: one user's summary, or nil for an id the cluster does not know.
    package static func summary(of userID: String, on connection: PostgresConnection, logger: Logger) async throws
        -> UserSummary?
    {
        var found: (name: String, createdAt: Int64, seq: Int64)?
        let users = try await connection.query(
            "SELECT name, created_at, seq FROM users WHERE id = \(userID)", logger: logger)
        for try await row in users.decode((String, Int64, Int64).self) { found = row }
        guard let user = found else { return nil }

        var contacts = (responders: Int64(0), dependents: Int64(0))
        for try await row in try await connection.query("""
            SELECT count(*) FILTER (WHERE is_responder), count(*) FILTER (WHERE is_dependent)
            FROM contacts WHERE user_id = \(userID)
            """, logger: logger).decode((Int64, Int64).self) { contacts = row }

        var notifications = (all: Int64(0), unread: Int64(0))
        for try await row in try await connection.query("""
            SELECT count(*), count(*) FILTER (WHERE NOT is_read) FROM notifications WHERE user_id = \(userID)
            """, logger: logger).decode((Int64, Int64).self) { notifications = row }

        let (devices, _) = try await Self.devices(of: userID, on: connection, logger: logger)
        let holders = try await presence(of: userID, on: connection, logger: logger)
        return UserSummary(
            id: userID, name: user.name, createdAt: user.createdAt, seq: user.seq,
            responders: Int(contacts.responders), dependents: Int(contacts.dependents),
            notifications: Int(notifications.all), unread: Int(notifications.unread),
            devices: devices.sorted { $0.key.deviceID < $1.key.deviceID }.map { device in
                UserSummary.Device(
                    id: device.key.deviceID, platform: device.platform, hasToken: device.pushToken != nil,
                    lastSeenAt: device.lastSeenAt,
                    online: holders[device.key.deviceID].map { .online(broker: $0) } ?? .offline)
            })
    }
}
