import LifeSignalEngine
import LifeSignalProtocol
import PostgresNIO

/// What a device is sent when it says `hello` to any broker of the cluster (§3): the events it
/// missed, or the whole state when those are no longer kept.
public enum ClusterCatchUp: Sendable {
    case events([(seq: Int64, body: String)])
    case snapshot([UInt8])
}

/// A device's `hello` as the cluster answers it: the user's document, the head seq the catch-up
/// ends at (later events reach the device live), and the catch-up.
public struct ClusterGreeting: Sendable {
    public let user: User
    public let head: Int64
    public let catchUp: ClusterCatchUp

    /// The catch-up as frames, to follow the `ok`.
    package var frames: [UInt8] {
        switch catchUp {
        case .events(let events): events.flatMap { FrameEncoder.frame(body: Array($0.body.utf8)) }
        case .snapshot(let frame): frame
        }
    }
}

/// A `hello` whose token no longer lets the device in when the cluster looks again: under the
/// user's lock in `attach`, in the greeting's snapshot. A device revoked (§12) while it said hello
/// is refused there, so that its revocation is never in a catch-up it is sent but live, where it
/// closes the connection.
public struct HelloNotAdmitted: Error, Sendable {}

extension ClusterExecutor {
    /// Whether `token` lets `deviceID` of `userID` in: the account's token, or the device's own
    /// (§12). Constant-time, against the stored hashes; false for an unknown user, after the same
    /// work.
    public func authenticate(userID: String, token: String, deviceID: String) async throws -> Bool {
        let logger = self.logger
        return try await database.withConnection { connection in
            try await Self.admits(userID: userID, token: token, deviceID: deviceID, on: connection, logger: logger)
        }
    }

    /// `authenticate` on `connection`, as the transaction it is in sees the rows.
    private static func admits(userID: String, token: String, deviceID: String, on connection: PostgresConnection,
                               logger: Logger) async throws -> Bool {
        var stored: (account: [UInt8], device: [UInt8]?)?
        for try await (account, device) in try await connection.query("""
            SELECT u.token_hash, d.token_hash FROM users u
            LEFT JOIN device_credentials d ON d.user_id = u.id AND d.device_id = \(deviceID)
            WHERE u.id = \(userID)
            """, logger: logger).decode((ByteBuffer, ByteBuffer?).self) {
            stored = (Array(buffer: account), device.map { Array(buffer: $0) })
        }
        let accountHash = stored?.account ?? Credentials.hash(token: "no such user")
        return HelloCredential.admits(token: token, accountHash: TokenHash(accountHash),
                                      deviceHash: stored?.device.flatMap(TokenHash.init))
    }

    /// Throws `HelloNotAdmitted` unless `token` (nil: not checked) lets the device in.
    private static func checkAdmitted(_ token: String?, userID: String, deviceID: String,
                                      on connection: PostgresConnection, logger: Logger) async throws {
        guard let token else { return }
        guard try await admits(userID: userID, token: token, deviceID: deviceID, on: connection, logger: logger) else {
            throw HelloNotAdmitted()
        }
    }

    /// Records the device (last seen now) and that `brokerID` holds its connection, and says the
    /// broker is alive: from now on its events reach it here and it is not pushed to. Under the
    /// user's lock, so that brokers attaching devices of one user at once count them right: at
    /// most `maxOnline` devices online on live brokers (`too_many_devices`), and a device never
    /// stored before replaces the least recently seen offline ones past `maxStored` (§10; 0: off).
    /// Returns the live broker that held the device until now, if another one did: its connection
    /// is to be `replaced` (§3).
    /// `admitting`: the hello's token, checked under the lock (`HelloNotAdmitted`), so that a
    /// device revoked meanwhile is not stored again.
    @discardableResult
    public func attach(userID: String, deviceID: String, platform: String?, brokerID: String, now: Int64,
                       maxOnline: Int = 0, maxStored: Int = 0, admitting token: String? = nil) async throws -> String?
    {
        let logger = self.logger
        return try await Self.unwrapped { try await database.withTransaction(logger: logger) { connection in
            try await connection.query("SELECT id FROM users WHERE id = \(userID) FOR UPDATE", logger: logger).drain()
            try await Self.checkAdmitted(token, userID: userID, deviceID: deviceID, on: connection, logger: logger)
            let (stored, online) = try await ClusterRows.devices(of: userID, on: connection, logger: logger)
            let key = DeviceKey(userID: userID, deviceID: deviceID)
            let attachment = try DeviceAttachment(
                key, platform: platform, now: now, existing: stored.first { $0.key == key }, stored: stored,
                onlineCount: online.count, isOnline: online.contains, maxOnline: maxOnline, maxStored: maxStored)
            _ = try await ClusterRows.commit(attachment.deletions, on: connection, logger: logger)
            // The presence row needs this broker's row. DO NOTHING takes no lock on it: updating the
            // heartbeat here made every hello through this broker wait for the one before it.
            try await connection.query(
                "INSERT INTO brokers (broker_id) VALUES (\(brokerID)) ON CONFLICT (broker_id) DO NOTHING",
                logger: logger).drain()
            // What the hello says, not the whole `attachment.record`.
            try await connection.query("""
                INSERT INTO devices (user_id, device_id, platform, last_seen_at)
                VALUES (\(userID), \(deviceID), \(platform), \(attachment.record.lastSeenAt))
                ON CONFLICT (user_id, device_id) DO UPDATE SET
                    last_seen_at = excluded.last_seen_at, platform = coalesce(excluded.platform, devices.platform)
                """, logger: logger).drain()
            var previous: String?
            for try await holder in try await connection.query(
                "SELECT broker_id FROM presence WHERE user_id = \(userID) AND device_id = \(deviceID)", logger: logger
            ).decode(String.self) { previous = holder }
            try await connection.query("""
                INSERT INTO presence (user_id, device_id, broker_id) VALUES (\(userID), \(deviceID), \(brokerID))
                ON CONFLICT (user_id, device_id) DO UPDATE SET broker_id = excluded.broker_id, since = now()
                """, logger: logger).drain()
            return online.contains(deviceID) && previous != brokerID ? previous : nil
        } }
    }

    /// The device's connection ended: it is offline (pushed to) and last seen now. Only the
    /// broker that holds it may say so; a device that moved meanwhile stays where it is.
    public func detach(userID: String, deviceID: String, brokerID: String, now: Int64) async throws {
        try await execute("""
            DELETE FROM presence WHERE user_id = \(userID) AND device_id = \(deviceID) AND broker_id = \(brokerID)
            """)
        try await execute("""
            UPDATE devices SET last_seen_at = \(now) WHERE user_id = \(userID) AND device_id = \(deviceID)
            """)
    }

    /// The catch-up for a device resuming after `resume` (nil: none): the events it missed while
    /// all of them are kept, else a snapshot (§3) with the newest `Validate.notificationPage`
    /// notifications, as on every store.
    public func catchUp(of userID: String, resume: Int64?, recentNotifications: Int = Validate.notificationPage) async throws
        -> ClusterCatchUp
    {
        try await greeting(of: userID, resume: resume, recentNotifications: recentNotifications).catchUp
    }

    /// What a device saying `hello` is sent: the user, the head seq and the catch-up up to that
    /// head (`CatchUpPlan`), read in one snapshot of the database.
    /// `admitting`: the device and the token of its hello, checked in the same snapshot as the head
    /// (`HelloNotAdmitted`): a revocation the catch-up holds is one the token no longer passes.
    public func greeting(of userID: String, resume: Int64?, recentNotifications: Int = Validate.notificationPage,
                         maxOutboundBytes: Int = .max, admitting: (deviceID: String, token: String)? = nil)
        async throws -> ClusterGreeting
    {
        let (logger, history) = (self.logger, notificationHistory)
        return try await Self.unwrapped { try await database.withTransaction(logger: logger) { connection in
            try await connection.query("SET TRANSACTION ISOLATION LEVEL REPEATABLE READ", logger: logger).drain()
            if let admitting {
                try await Self.checkAdmitted(admitting.token, userID: userID, deviceID: admitting.deviceID,
                                             on: connection, logger: logger)
            }
            var head: (seq: Int64, oldest: Int64)?
            for try await row in try await connection.query(
                "SELECT seq, oldest_retained_seq FROM users WHERE id = \(userID)", logger: logger).decode((Int64, Int64).self) {
                head = row
            }
            guard let head,
                  let user = try await ClusterRows.accounts([userID], on: connection, logger: logger).first?.user
            else { throw ProtocolError(.unauthenticated, "unknown user") }
            let plan = CatchUpPlan(resume: resume, head: head.seq, oldestRetained: head.oldest,
                                   maxOutboundBytes: maxOutboundBytes)
            if case .replay(let after, let through, let maxBytes) = plan {
                var events: [(seq: Int64, body: String)] = []
                var bytes = 0
                let rows = try await connection.query("""
                    SELECT seq, body FROM events WHERE user_id = \(userID) AND seq > \(after) AND seq <= \(through)
                    ORDER BY seq
                    """, logger: logger)
                for try await (seq, body) in rows.decode((Int64, String).self) {
                    bytes += body.utf8.count + 4
                    events.append((seq, body))
                }
                if bytes <= maxBytes {
                    return ClusterGreeting(user: user, head: head.seq, catchUp: .events(events))
                }
            }
            let snapshot = try await Self.snapshot(of: userID, seq: head.seq, recentNotifications: recentNotifications,
                                                   history: history, on: connection, logger: logger)
            return ClusterGreeting(user: user, head: head.seq, catchUp: .snapshot(snapshot))
        } }
    }

    /// The user, each contact as they see them (derived from the contact's own row), the newest
    /// notifications and the unread count, at `seq`.
    package static func snapshot(of userID: String, seq: Int64, recentNotifications: Int, history: Int,
                         on connection: PostgresConnection, logger: Logger) async throws -> [UInt8] {
        guard let account = try await ClusterRows.accounts([userID], on: connection, logger: logger).first else {
            throw ProtocolError(.unauthenticated, "unknown user")
        }
        let contacts = try await ClusterRows.contactViews(of: account, on: connection, logger: logger)
        let notifications = try await ClusterRows.newestNotifications(
            of: userID, limit: recentNotifications, history: history, on: connection, logger: logger)
        let unread = try await ClusterRows.unreadCount(of: userID, history: history, on: connection, logger: logger)
        return Outbound.snapshot(seq: seq, user: account.user, contacts: contacts, notifications: notifications,
                                 unreadCount: unread)
    }
}
