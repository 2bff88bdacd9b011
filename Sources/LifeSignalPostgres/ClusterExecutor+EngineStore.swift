import LifeSignalEngine
import LifeSignalProtocol
import LifeSignalPush
import LifeSignalRules
import PostgresNIO

/// The cluster's answers: each read on a pooled connection, as committed now; a commit in one
/// transaction of its own.
extension ClusterExecutor: EngineStore {
    public func commit(_ changes: [StoreChange]) async throws {
        let logger = self.logger
        try await Self.unwrapped { try await database.withTransaction(logger: logger) { connection in
            _ = try await ClusterRows.commit(changes, on: connection, logger: logger)
        } }
    }

    public func qrCodeOwner(_ qrCode: String) async throws -> QRCodeOwner? {
        try await collect("SELECT id, name FROM users WHERE qr_code = \(qrCode)") { row in
            let (id, name) = try row.decode((String, String).self)
            return QRCodeOwner(id: id, name: name)
        }.first
    }

    public func notification(_ id: String, of userID: String, history: Int) async throws -> LifeSignalProtocol.Notification? {
        let logger = self.logger
        return try await database.withConnection { connection in
            try await ClusterRows.notification(id, of: userID, history: history, on: connection, logger: logger)
        }
    }

    public func notifications(of userID: String, before: String?, limit: Int, history: Int) async throws
        -> [LifeSignalProtocol.Notification]?
    {
        let logger = self.logger
        return try await database.withConnection { connection in
            try await ClusterRows.notifications(of: userID, before: before, limit: limit, history: history,
                                                on: connection, logger: logger)
        }
    }

    public func pushes(of userID: String) async throws -> [PushMessage] {
        try await collect("""
            SELECT device_id, token, notification_id, body, created_at FROM pushes WHERE user_id = \(userID)
            ORDER BY position
            """) { row in
            let (deviceID, token, notificationID, body, createdAt) = try row.decode((String, String, String, String, Int64).self)
            return PushMessage(userID: userID, deviceID: deviceID, token: token, notificationID: notificationID,
                               body: Array(body.utf8), createdAt: createdAt)
        }
    }

    public func accounts(of ids: Set<String>) async throws -> [String: Account] {
        Dictionary(uniqueKeysWithValues: try await accounts(Array(ids)).map { ($0.id, $0) })
    }

    public func pendingDeadlines() async throws -> [String: Int64] {
        Dictionary(uniqueKeysWithValues: try await collect("""
            SELECT id, check_in_deadline FROM users WHERE check_in_deadline IS NOT NULL AND NOT is_non_responsive
            """) { try $0.decode((String, Int64).self) })
    }

    public func devices(of userID: String) async throws -> [DeviceRecord] {
        let logger = self.logger
        let (devices, _) = try await database.withConnection { connection in
            try await ClusterRows.devices(of: userID, on: connection, logger: logger)
        }
        return devices.sorted { $0.key.deviceID < $1.key.deviceID }
    }

    public func events(of userID: String, after: Int64, through: Int64, maxBytes: Int) async throws -> [[UInt8]]? {
        guard through > after else { return [] }
        let rows = try await collect("""
            SELECT seq, body FROM events WHERE user_id = \(userID) AND seq > \(after) AND seq <= \(through) ORDER BY seq
            """) { try $0.decode((Int64, String).self) }
        var bodies: [[UInt8]] = []
        var frameBytes = 0
        for (offset, (seq, body)) in rows.enumerated() {
            frameBytes += 4 + body.utf8.count
            guard seq == after + 1 + Int64(offset), frameBytes <= maxBytes else { return nil }
            bodies.append(Array(body.utf8))
        }
        return bodies.count == Int(through - after) ? bodies : nil
    }

    public func keptOutcome(_ opID: String, of userID: String) async throws -> KeptOutcome? {
        try await collect("""
            SELECT op_id, op, answer, kept_at FROM kept_outcomes WHERE user_id = \(userID) AND op_id = \(opID)
            """, Self.keptOutcome(from:)).first ?? nil
    }

    public func keptOutcomes(of userID: String) async throws -> [KeptOutcome] {
        try await collect("""
            SELECT op_id, op, answer, kept_at FROM kept_outcomes WHERE user_id = \(userID) ORDER BY kept_at, op_id
            """, Self.keptOutcome(from:)).compactMap { $0 }
    }

    public func deviceCredentials(of userID: String) async throws -> [DeviceCredential] {
        let logger = self.logger
        return try await database.withConnection { connection in
            try await ClusterRows.deviceCredentials(of: userID, on: connection, logger: logger)
        }
    }

    public func linkCode(_ code: String) async throws -> LinkCode? {
        try await collect("SELECT user_id, expires_at FROM link_codes WHERE code = \(code)") { row in
            let (userID, expiresAt) = try row.decode((String, Int64).self)
            return LinkCode(code: code, userID: userID, expiresAt: expiresAt)
        }.first
    }

    /// A row of `op_id, op, answer, kept_at`; nil for an answer no broker wrote.
    package static func keptOutcome(from row: PostgresRow) throws -> KeptOutcome? {
        let (opID, op, answer, keptAt) = try row.decode((String, String, ByteBuffer, Int64).self)
        return KeptOutcome.answer(stored: Array(answer.readableBytesView)).map { KeptOutcome(opID: opID, op: op, answer: $0, keptAt: keptAt) }
    }
}
