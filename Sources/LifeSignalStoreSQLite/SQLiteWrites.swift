import Foundation
import GRDB
import LifeSignalEngine
import LifeSignalProtocol

/// Applies one `StoreChange` inside the writer's transaction. The changes every ping, check-in,
/// alert or hello makes (events, contact rows, notifications, the device's last seen) run through
/// statements prepared once and bound directly (`DirectStatement`); the rarer ones through GRDB's
/// statement cache.
package struct SQLiteWrites {
    private let appendEvent: DirectStatement
    private let pruneEvents: DirectStatement
    private let upsertRelationship: DirectStatement
    private let deleteRelationship: DirectStatement
    private let insertNotification: DirectStatement
    private let upsertDevice: DirectStatement
    private let notificationPruning: NotificationPruning

    /// Prepares the statements on the writer's connection, which they must only be used with.
    package init(_ db: Database) throws {
        appendEvent = try DirectStatement(db, sql: "INSERT INTO events (user_id, seq, body) VALUES (?, ?, ?)")
        pruneEvents = try DirectStatement(db, sql: "DELETE FROM events WHERE user_id = ? AND seq <= ?")
        // An upsert rewrites the row where it is; OR REPLACE deleted it and inserted it again.
        upsertRelationship = try DirectStatement(db, sql: """
            INSERT INTO relationships (low_id, high_id, high_watches_low, low_watches_high, added_at,
                ping_to_low_at, ping_to_low_id, ping_to_high_at, ping_to_high_id)
            VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)
            ON CONFLICT (low_id, high_id) DO UPDATE SET
                high_watches_low = excluded.high_watches_low, low_watches_high = excluded.low_watches_high,
                added_at = excluded.added_at, ping_to_low_at = excluded.ping_to_low_at,
                ping_to_low_id = excluded.ping_to_low_id, ping_to_high_at = excluded.ping_to_high_at,
                ping_to_high_id = excluded.ping_to_high_id
            """)
        deleteRelationship = try DirectStatement(db, sql: "DELETE FROM relationships WHERE low_id = ? AND high_id = ?")
        // Every hello writes its device (last seen).
        upsertDevice = try DirectStatement(db, sql: """
            INSERT INTO devices (user_id, device_id, platform, push_token, last_seen_at) VALUES (?, ?, ?, ?, ?)
            ON CONFLICT (user_id, device_id) DO UPDATE SET
                platform = excluded.platform, push_token = excluded.push_token, last_seen_at = excluded.last_seen_at
            """)
        notificationPruning = try NotificationPruning(db)
        insertNotification = try DirectStatement(db, sql: """
            INSERT INTO notifications (id, user_id, type, title, message, timestamp, is_read,
                related_contact_id, related_alert_id, related_ping_id, contact_data, alert_data)
            VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
            """)
    }

    /// Applies one request's changes in order. A request writes both sides of a relationship,
    /// one after the other, and both are the same row: a side that would write again exactly the
    /// row this request's last relationship write left costs no statement.
    package func apply(_ changes: [StoreChange], _ db: Database) throws {
        var lastRelationship: RelationshipRow?
        for change in changes { try apply(change, after: &lastRelationship, db) }
    }

    private func upsert(_ relationship: RelationshipRow, _ db: Database) throws {
        try upsertRelationship.run(db) { row in
            row.add(relationship.lowID)
            row.add(relationship.highID)
            row.add(relationship.highWatchesLow)
            row.add(relationship.lowWatchesHigh)
            row.add(relationship.addedAt)
            row.add(relationship.pingToLow?.sentAt)
            row.add(relationship.pingToLow?.id)
            row.add(relationship.pingToHigh?.sentAt)
            row.add(relationship.pingToHigh?.id)
        }
    }

    private func apply(_ change: StoreChange, after lastRelationship: inout RelationshipRow?, _ db: Database) throws {
        switch change {
        case .createUser(let user, let tokenHash):
            try db.cachedStatement(sql: """
                INSERT INTO users (\(UserColumns.all.joined(separator: ", ")))
                VALUES (\(Array(repeating: "?", count: UserColumns.all.count).joined(separator: ", ")))
                """).execute(arguments: UserColumns.profileArguments(user) + [user.id, Data(tokenHash), user.createdAt])
        case .updateUser(let user):
            try db.cachedStatement(sql: """
                UPDATE users SET \(UserColumns.profile.map { "\($0) = ?" }.joined(separator: ", ")) WHERE id = ?
                """).execute(arguments: UserColumns.profileArguments(user) + [user.id])
        case .upsertDevice(let device):
            try upsertDevice.run(db) { row in
                row.add(device.key.userID)
                row.add(device.key.deviceID)
                row.add(device.platform)
                row.add(device.pushToken)
                row.add(device.lastSeenAt)
            }
        case .deleteDevice(let key):
            try db.cachedStatement(sql: "DELETE FROM devices WHERE user_id = ? AND device_id = ?")
                .execute(arguments: [key.userID, key.deviceID])
        case .movePushToken(let token, let owner, let platform):
            try db.cachedStatement(sql: """
                UPDATE devices SET push_token = NULL WHERE push_token = ? AND NOT (user_id = ? AND device_id = ?)
                """).execute(arguments: [token, owner.userID, owner.deviceID])
            try db.cachedStatement(sql: """
                INSERT INTO devices (user_id, device_id, platform, push_token) VALUES (?, ?, ?, ?)
                ON CONFLICT (user_id, device_id) DO UPDATE SET
                    push_token = excluded.push_token, platform = coalesce(excluded.platform, platform)
                """).execute(arguments: [owner.userID, owner.deviceID, platform, token])
        case .clearPushToken(let key, let ifToken):
            try db.cachedStatement(sql: """
                UPDATE devices SET push_token = NULL
                WHERE user_id = ? AND device_id = ? AND (? IS NULL OR push_token = ?)
                """).execute(arguments: [key.userID, key.deviceID, ifToken, ifToken])
        case .appendEvent(let userID, let seq, let body):
            try appendEvent.run(db) { row in
                row.add(userID)
                row.add(seq)
                row.add(bytes: body)
            }
        case .pruneEvents(let userID, let throughSeq):
            try pruneEvents.run(db) { row in
                row.add(userID)
                row.add(throughSeq)
            }
        case .upsertContact(let contact):
            let relationship = RelationshipRow(contact)
            guard relationship != lastRelationship else { return }
            try upsert(relationship, db)
            lastRelationship = relationship
        case .deleteContact(let userID, let contactID):
            lastRelationship = nil
            let (low, high) = RelationshipRow.ends(userID, contactID)
            try deleteRelationship.run(db) { row in
                row.add(low)
                row.add(high)
            }
        case .insertNotification(let userID, let notification):
            try insertNotification.run(db) { row in
                row.add(notification.id)
                row.add(userID)
                row.add(notification.type.rawValue)
                row.add(notification.title)
                row.add(notification.message)
                row.add(notification.timestamp)
                row.add(notification.isRead)
                row.add(notification.relatedContactID)
                row.add(notification.relatedAlertID)
                row.add(notification.relatedPingID)
                row.add(notification.contactData.map { String(decoding: $0.serialized(), as: UTF8.self) })
                row.add(notification.alertData.map { String(decoding: $0.serialized(), as: UTF8.self) })
            }
        case .pruneNotifications(let userID, let keepNewest):
            try notificationPruning.keepNewest(keepNewest, of: userID, db)
        case .setNotificationRead(let id):
            try db.cachedStatement(sql: "UPDATE notifications SET is_read = 1 WHERE id = ?").execute(arguments: [id])
        case .markAllNotificationsRead(let userID):
            try db.cachedStatement(sql: "UPDATE notifications SET is_read = 1 WHERE user_id = ? AND is_read = 0")
                .execute(arguments: [userID])
        case .deleteNotification(let id):
            // Its pushes go with it, as when the history prunes it.
            try db.cachedStatement(sql: "DELETE FROM pushes WHERE notification_id = ?").execute(arguments: [id])
            try db.cachedStatement(sql: "DELETE FROM notifications WHERE id = ?").execute(arguments: [id])
        case .recordPush(let push):
            // At most one push per notification and token (§7), even if asked twice.
            try db.cachedStatement(sql: """
                INSERT OR IGNORE INTO pushes (user_id, device_id, token, notification_id, body, created_at)
                VALUES (?, ?, ?, ?, ?, ?)
                """).execute(arguments: [push.userID, push.deviceID, push.token, push.notificationID,
                                         String(decoding: push.body, as: UTF8.self), push.createdAt])
        case .keepOutcome(let userID, let outcome):
            try db.cachedStatement(sql: """
                INSERT INTO kept_outcomes (user_id, op_id, op, answer, kept_at) VALUES (?, ?, ?, ?, ?)
                """).execute(arguments: [userID, outcome.opID, outcome.op, Data(outcome.storedAnswer), outcome.keptAt])
        case .pruneKeptOutcomes(let userID, let keepNewest, let keptBefore):
            try db.cachedStatement(sql: """
                DELETE FROM kept_outcomes WHERE user_id = ? AND kept_at < ? AND op_id NOT IN (
                    SELECT op_id FROM kept_outcomes WHERE user_id = ? ORDER BY kept_at DESC, op_id DESC LIMIT ?)
                """).execute(arguments: [userID, keptBefore, userID, keepNewest])
        case .eraseUser(let userID):
            // Every table by name: the store does not enforce its foreign keys, so nothing cascades.
            try db.cachedStatement(sql: "DELETE FROM relationships WHERE low_id = ?1 OR high_id = ?1")
                .execute(arguments: [userID])
            for table in ["devices", "device_credentials", "link_codes", "notifications", "events", "pushes",
                          "kept_outcomes"] {
                try db.cachedStatement(sql: "DELETE FROM \(table) WHERE user_id = ?").execute(arguments: [userID])
            }
            try db.cachedStatement(sql: "DELETE FROM users WHERE id = ?").execute(arguments: [userID])
        case .grantDeviceCredential(let credential):
            try db.cachedStatement(sql: """
                INSERT INTO device_credentials (user_id, device_id, token_hash, linked_at) VALUES (?, ?, ?, ?)
                ON CONFLICT (user_id, device_id) DO UPDATE SET token_hash = excluded.token_hash, linked_at = excluded.linked_at
                """).execute(arguments: [credential.key.userID, credential.key.deviceID, Data(credential.tokenHash),
                                         credential.linkedAt])
        case .revokeDevice(let key):
            for table in ["device_credentials", "devices"] {
                try db.cachedStatement(sql: "DELETE FROM \(table) WHERE user_id = ? AND device_id = ?")
                    .execute(arguments: [key.userID, key.deviceID])
            }
        case .createLinkCode(let link):
            try db.cachedStatement(sql: "INSERT INTO link_codes (code, user_id, expires_at) VALUES (?, ?, ?)")
                .execute(arguments: [link.code, link.userID, link.expiresAt])
        case .spendLinkCode(let code, let userID, let now):
            try db.cachedStatement(sql: "DELETE FROM link_codes WHERE code = ? AND user_id = ? AND expires_at > ?")
                .execute(arguments: [code, userID, now])
            guard db.changesCount == 1 else { throw LinkCodeNotValid(code: code) }
        case .pruneLinkCodes(let now):
            try db.cachedStatement(sql: "DELETE FROM link_codes WHERE expires_at <= ?").execute(arguments: [now])
        }
    }
}

/// The mutable columns of `users`, shared by insert, update and load so they cannot drift apart.
package enum UserColumns {
    package static let profile = [
        "name", "phone", "qr_code", "check_in_interval_sec", "last_check_in_at", "check_in_deadline",
        "is_non_responsive", "alert_id", "alert_started_at", "alert_message", "push_enabled", "muted_types",
    ]

    package static func profileArguments(_ user: User) -> StatementArguments {
        [
            user.name, user.phone, user.qrCode, user.checkInIntervalSec, user.lastCheckInAt, user.checkInDeadline,
            user.isNonResponsive, user.alert?.id, user.alert?.startedAt, user.alert?.message,
            user.preferences.push, user.preferences.mutedTypes.map(\.rawValue).joined(separator: ","),
        ]
    }

    /// Every column of a user row, in the order `createUser` writes them and `userAndTokenHash(from:)`
    /// reads them: `profile`, then id, token_hash and created_at.
    package static let all = profile + ["id", "token_hash", "created_at"]

    /// A user read by `SQLiteReads`, its columns selected in the order of `all`.
    package static func userAndTokenHash(from row: DirectStatement.Columns) -> (User, [UInt8]) {
        let id = Int32(profile.count)
        let user = User(
            id: row.string(id),
            name: row.string(0),
            phone: row.optionalString(1),
            qrCode: row.string(2),
            checkInIntervalSec: row.int64(3),
            lastCheckInAt: row.optionalInt64(4),
            checkInDeadline: row.optionalInt64(5),
            isNonResponsive: row.bool(6),
            alert: row.optionalString(7).map { AlertInfo(id: $0, startedAt: row.int64(8), message: row.optionalString(9)) },
            preferences: Preferences(
                push: row.bool(10),
                mutedTypes: row.string(11).split(separator: ",").compactMap { NotificationType(rawValue: String($0)) }
            ),
            createdAt: row.int64(id + 2)
        )
        return (user, row.bytes(id + 1))
    }
}
