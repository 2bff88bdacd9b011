import LifeSignalEngine
import LifeSignalProtocol
import PostgresNIO

/// The cluster's one way to write a store's changes.
extension ClusterRows {
    /// Applies `changes` in order, in the caller's transaction: what `SQLiteWrites` does in the
    /// embedded store. Contact rows, events, notifications and pushes are gathered into one
    /// statement (`write(_ additions:)`), written before any change that must see them.
    /// Returns each new notification's user and position in the history.
    package static func commit(_ changes: [StoreChange], on connection: PostgresConnection, logger: Logger) async throws
        -> [(userID: String, position: Int64)]
    {
        var additions = Additions()
        var positions: [(userID: String, position: Int64)] = []
        func writeAdditions() async throws {
            positions += try await write(additions, on: connection, logger: logger)
            additions = Additions()
        }
        // A batch's kept outcomes (§12) go in one statement, after the users they belong to.
        var kept: [(userID: String, outcome: KeptOutcome)] = []
        func writeKept() async throws {
            guard !kept.isEmpty else { return }
            try await writeAdditions()
            try await insert(kept, on: connection, logger: logger)
            kept = []
        }
        for change in changes {
            switch change {
            case .upsertContact(let record):
                additions.contactRows.append(record)
            case .appendEvent(let userID, let seq, let body):
                additions.events.append((userID, seq, String(decoding: body, as: UTF8.self)))
                additions.heads[userID] = max(additions.heads[userID] ?? seq, seq)
            case .insertNotification(let userID, let notification):
                additions.notifications.append((userID, notification))
            case .recordPush(let push):
                additions.pushes.append(push)
            // The next five touch nothing an addition writes.
            case .updateUser(let user):
                try await update(user, on: connection, logger: logger)
            case .upsertDevice(let device):
                try await connection.query("""
                    INSERT INTO devices (user_id, device_id, platform, push_token, last_seen_at)
                    VALUES (\(device.key.userID), \(device.key.deviceID), \(device.platform), \(device.pushToken),
                            \(device.lastSeenAt))
                    ON CONFLICT (user_id, device_id) DO UPDATE SET platform = excluded.platform,
                        push_token = excluded.push_token, last_seen_at = excluded.last_seen_at
                    """, logger: logger).drain()
            case .deleteDevice(let key):
                try await connection.query(
                    "DELETE FROM devices WHERE user_id = \(key.userID) AND device_id = \(key.deviceID)", logger: logger
                ).drain()
            case .movePushToken(let token, let owner, let platform):
                try await connection.query("""
                    UPDATE devices SET push_token = NULL
                    WHERE push_token = \(token) AND NOT (user_id = \(owner.userID) AND device_id = \(owner.deviceID))
                    """, logger: logger).drain()
                try await connection.query("""
                    INSERT INTO devices (user_id, device_id, platform, push_token)
                    VALUES (\(owner.userID), \(owner.deviceID), \(platform), \(token))
                    ON CONFLICT (user_id, device_id) DO UPDATE SET
                        push_token = excluded.push_token, platform = coalesce(excluded.platform, devices.platform)
                    """, logger: logger).drain()
            case .clearPushToken(let key, let ifToken):
                try await connection.query("""
                    UPDATE devices SET push_token = NULL
                    WHERE user_id = \(key.userID) AND device_id = \(key.deviceID)
                        AND (\(ifToken)::text IS NULL OR push_token = \(ifToken))
                    """, logger: logger).drain()
            // The rest may remove, or must follow, what the additions write.
            case .createUser(let user, let tokenHash):
                try await writeAdditions()
                try await insert(user, tokenHash: tokenHash, on: connection, logger: logger)
            case .pruneEvents(let userID, let throughSeq):
                try await writeAdditions()
                try await connection.query("""
                    UPDATE users SET oldest_retained_seq = greatest(oldest_retained_seq, \(throughSeq + 1))
                    WHERE id = \(userID)
                    """, logger: logger).drain()
                try await connection.query(
                    "DELETE FROM events WHERE user_id = \(userID) AND seq <= \(throughSeq)", logger: logger).drain()
            case .deleteContact(let userID, let contactID):
                try await writeAdditions()
                try await connection.query(
                    "DELETE FROM contacts WHERE user_id = \(userID) AND contact_id = \(contactID)", logger: logger
                ).drain()
            case .pruneNotifications(let userID, let keepNewest):
                try await writeAdditions()
                try await keepNewestNotifications(keepNewest, of: userID, on: connection, logger: logger)
            case .setNotificationRead(let id):
                try await writeAdditions()
                try await connection.query("UPDATE notifications SET is_read = true WHERE id = \(id)", logger: logger)
                    .drain()
            case .markAllNotificationsRead(let userID):
                try await writeAdditions()
                try await connection.query(
                    "UPDATE notifications SET is_read = true WHERE user_id = \(userID) AND NOT is_read", logger: logger
                ).drain()
            case .deleteNotification(let id):
                try await writeAdditions()
                try await connection.query("DELETE FROM pushes WHERE notification_id = \(id)", logger: logger).drain()
                try await connection.query("DELETE FROM notifications WHERE id = \(id)", logger: logger).drain()
            case .keepOutcome(let userID, let outcome):
                kept.append((userID, outcome))
            case .pruneKeptOutcomes(let userID, let keepNewest, let keptBefore):
                try await writeKept()
                try await connection.query("""
                    DELETE FROM kept_outcomes WHERE user_id = \(userID) AND kept_at < \(keptBefore) AND op_id NOT IN (
                        SELECT op_id FROM kept_outcomes WHERE user_id = \(userID)
                        ORDER BY kept_at DESC, op_id DESC LIMIT \(Int64(keepNewest)))
                    """, logger: logger).drain()
            case .eraseUser(let userID):
                try await writeKept()
                try await erase(userID, on: connection, logger: logger)
            case .grantDeviceCredential(let credential):
                try await connection.query("""
                    INSERT INTO device_credentials (user_id, device_id, token_hash, linked_at)
                    VALUES (\(credential.key.userID), \(credential.key.deviceID), \(ByteBuffer(bytes: credential.tokenHash)),
                            \(credential.linkedAt))
                    ON CONFLICT (user_id, device_id) DO UPDATE SET token_hash = excluded.token_hash,
                        linked_at = excluded.linked_at
                    """, logger: logger).drain()
            case .revokeDevice(let key):
                try await connection.query("""
                    WITH credential AS (DELETE FROM device_credentials
                                        WHERE user_id = \(key.userID) AND device_id = \(key.deviceID))
                    DELETE FROM devices WHERE user_id = \(key.userID) AND device_id = \(key.deviceID)
                    """, logger: logger).drain()
            case .createLinkCode(let link):
                try await connection.query("""
                    INSERT INTO link_codes (code, user_id, expires_at) VALUES (\(link.code), \(link.userID), \(link.expiresAt))
                    """, logger: logger).drain()
            case .spendLinkCode(let code, let userID, let now):
                var spent = 0
                for try await _ in try await connection.query("""
                    DELETE FROM link_codes WHERE code = \(code) AND user_id = \(userID) AND expires_at > \(now)
                    RETURNING code
                    """, logger: logger) { spent += 1 }
                guard spent == 1 else { throw LinkCodeNotValid(code: code) }
            case .pruneLinkCodes(let now):
                try await connection.query("DELETE FROM link_codes WHERE expires_at <= \(now)", logger: logger).drain()
            }
        }
        try await writeAdditions()
        try await writeKept()
        return positions
    }

    /// Every row of the user in one statement: the references to the user's row (checked at its
    /// end, as NO ACTION constraints are) go with it.
    private static func erase(_ userID: String, on connection: PostgresConnection, logger: Logger) async throws {
        try await connection.query("""
            WITH contacts AS (DELETE FROM contacts WHERE user_id = \(userID) OR contact_id = \(userID)),
                 devices AS (DELETE FROM devices WHERE user_id = \(userID)),
                 notifications AS (DELETE FROM notifications WHERE user_id = \(userID)),
                 events AS (DELETE FROM events WHERE user_id = \(userID)),
                 pushes AS (DELETE FROM pushes WHERE user_id = \(userID)),
                 presence AS (DELETE FROM presence WHERE user_id = \(userID)),
                 kept AS (DELETE FROM kept_outcomes WHERE user_id = \(userID)),
                 credentials AS (DELETE FROM device_credentials WHERE user_id = \(userID)),
                 codes AS (DELETE FROM link_codes WHERE user_id = \(userID))
            DELETE FROM users WHERE id = \(userID)
            """, logger: logger).drain()
    }

    private static func insert(_ kept: [(userID: String, outcome: KeptOutcome)], on connection: PostgresConnection,
                               logger: Logger) async throws {
        let answers = kept.map { String(decoding: $0.outcome.storedAnswer, as: UTF8.self) }
        try await connection.query("""
            INSERT INTO kept_outcomes (user_id, op_id, op, answer, kept_at)
            SELECT user_id, op_id, op, convert_to(answer, 'UTF8'), kept_at
            FROM unnest(\(kept.map(\.userID))::text[], \(kept.map(\.outcome.opID))::text[],
                        \(kept.map(\.outcome.op))::text[], \(answers)::text[], \(kept.map(\.outcome.keptAt))::bigint[])
                AS k(user_id, op_id, op, answer, kept_at)
            """, logger: logger).drain()
    }
}
