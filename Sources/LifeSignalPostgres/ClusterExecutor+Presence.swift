import LifeSignalEngine
import LifeSignalProtocol
import LifeSignalPush
import PostgresNIO

/// Presence reconciled, not hoped for (issue 24): a row that says a device is online here while
/// this broker no longer holds it (its delete lost in an outage, a hello that failed after writing
/// it) makes every notification skip that device's push. Each broker rewrites its own rows from the
/// devices it really holds, and pushes each device it finds gone what was skipped meanwhile.
extension ClusterExecutor {
    /// What one reconciliation did: the rows of devices gone from here, and the pushes made up.
    public struct PresenceRepair: Sendable {
        public var removed: [DeviceKey] = []
        public var pushes: [PushMessage] = []
    }

    /// Rows older than this are not made up for: a push is for now, and the history is on `resume`.
    package static let missedPushWindowMs: Int64 = 3_600_000
    /// At most this many missed notifications are pushed per device (a snapshot's newest 100).
    package static let missedPushLimit = 100
    /// Clocks of brokers differ a little: a push made twice is better than one skipped.
    package static let missedPushMarginMs: Int64 = 2_000

    /// Makes this broker's presence rows the devices it `held` (and says it is alive): rows of
    /// other devices are deleted, a held device without a row gets one back (unless another broker
    /// holds it now). Each deleted device is pushed, once per token, the notifications made since it
    /// went offline here (`offlineSince`, ms, else since its row was written), as the commits that
    /// skipped it would have.
    public func reconcilePresence(brokerID: String, held: [DeviceKey], offlineSince: [DeviceKey: Int64],
                                  now: Int64) async throws -> PresenceRepair
    {
        let logger = self.logger
        return try await Self.unwrapped { try await database.withTransaction(logger: logger) { connection in
            try await connection.query("""
                INSERT INTO brokers (broker_id) VALUES (\(brokerID))
                ON CONFLICT (broker_id) DO UPDATE SET heartbeat_at = now()
                """, logger: logger).drain()
            let (users, devices) = (held.map(\.userID), held.map(\.deviceID))
            var stale: [(key: DeviceKey, sinceMs: Int64)] = []
            let deleted = try await connection.query("""
                DELETE FROM presence p WHERE p.broker_id = \(brokerID) AND NOT EXISTS (
                    SELECT 1 FROM unnest(\(users)::text[], \(devices)::text[]) AS h(u, d)
                    WHERE h.u = p.user_id AND h.d = p.device_id)
                RETURNING p.user_id, p.device_id, (extract(epoch FROM p.since) * 1000)::bigint
                """, logger: logger)
            for try await (userID, deviceID, since) in deleted.decode((String, String, Int64).self) {
                let key = DeviceKey(userID: userID, deviceID: deviceID)
                stale.append((key, offlineSince[key] ?? since))
            }
            try await connection.query("""
                INSERT INTO presence (user_id, device_id, broker_id)
                SELECT u, d, \(brokerID) FROM unnest(\(users)::text[], \(devices)::text[]) AS h(u, d)
                WHERE EXISTS (SELECT 1 FROM devices WHERE user_id = h.u AND device_id = h.d)
                ON CONFLICT (user_id, device_id) DO NOTHING
                """, logger: logger).drain()
            var repair = PresenceRepair(removed: stale.map(\.key))
            for (key, sinceMs) in stale {
                let from = max(sinceMs, now - Self.missedPushWindowMs) - Self.missedPushMarginMs
                repair.pushes += try await Self.missedPushes(to: key, since: from, on: connection, logger: logger)
            }
            return repair
        } }
    }

    /// The pushes `key` would have had for the notifications made since `since`, recorded (each
    /// notification and token once: what is recorded already is not pushed again).
    private static func missedPushes(to key: DeviceKey, since: Int64, on connection: PostgresConnection,
                                     logger: Logger) async throws -> [PushMessage]
    {
        let (devices, online) = try await ClusterRows.devices(of: key.userID, on: connection, logger: logger)
        guard !online.contains(key.deviceID), let device = devices.first(where: { $0.key == key }),
              device.pushToken != nil,
              let preferences = try await ClusterRows.accounts([key.userID], on: connection, logger: logger)
                  .first?.user.preferences else { return [] }
        let notifications = try await ClusterRows.notifications(of: key.userID, since: since, limit: missedPushLimit,
                                                                on: connection, logger: logger)
        let candidates = notifications.reversed().flatMap { notification in
            PushSelection.messages(for: notification, userID: key.userID, devices: [device], isOnline: { _ in false },
                                   preferences: preferences)
        }
        guard !candidates.isEmpty else { return [] }
        var recorded: Set<String> = []
        let rows = try await connection.query("""
            INSERT INTO pushes (user_id, device_id, token, notification_id, body, created_at)
            SELECT * FROM unnest(\(candidates.map(\.userID))::text[], \(candidates.map(\.deviceID))::text[],
                                 \(candidates.map(\.token))::text[], \(candidates.map(\.notificationID))::text[],
                                 \(candidates.map { String(decoding: $0.body, as: UTF8.self) })::text[],
                                 \(candidates.map(\.createdAt))::bigint[])
            ON CONFLICT (notification_id, token) DO NOTHING
            RETURNING notification_id
            """, logger: logger)
        for try await id in rows.decode(String.self) { recorded.insert(id) }
        return candidates.filter { recorded.contains($0.notificationID) }
    }
}
