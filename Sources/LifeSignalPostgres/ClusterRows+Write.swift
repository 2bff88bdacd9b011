import LifeSignalEngine
import LifeSignalProtocol
import LifeSignalPush
import LifeSignalRules
import PostgresNIO

/// What `commit` gathers into one statement (one round trip).
extension ClusterRows {
    /// What one statement adds: contact rows, new heads with the events under them, notifications
    /// and the pushes recorded for them.
    package struct Additions {
        package var contactRows: [ContactRecord] = []
        package var heads: [String: Int64] = [:]
        package var events: [(userID: String, seq: Int64, body: String)] = []
        package var notifications: [(userID: String, notification: LifeSignalProtocol.Notification)] = []
        package var pushes: [PushMessage] = []

        package var isEmpty: Bool { contactRows.isEmpty && events.isEmpty && notifications.isEmpty && pushes.isEmpty }
    }

    /// Writes `additions` in one statement; each new notification's user and position in the
    /// history. The parts touch different tables, so running them as sibling data-modifying
    /// CTEs (which see one snapshot, not each other's rows) loses nothing.
    package static func write(_ additions: Additions, on connection: PostgresConnection, logger: Logger) async throws
        -> [(userID: String, position: Int64)]
    {
        guard !additions.isEmpty else { return [] }
        let notifications = additions.notifications.map(\.notification)
        func text(_ json: JSONValue?) -> String { json.map { String(decoding: $0.serialized(), as: UTF8.self) } ?? "" }
        let statement = Prepared<WriteBatch>(contactBindings(additions.contactRows) + [
            Array(additions.heads.keys), Array(additions.heads.values),
            additions.events.map(\.userID), additions.events.map(\.seq),
            additions.events.map(\.body),
            notifications.map(\.id), additions.notifications.map(\.userID), notifications.map(\.type.rawValue),
            notifications.map(\.title), notifications.map(\.message), notifications.map(\.timestamp),
            notifications.map(\.isRead), notifications.map { $0.relatedContactID ?? "" },
            notifications.map { $0.relatedAlertID ?? "" }, notifications.map { $0.relatedPingID ?? "" },
            notifications.map { text($0.contactData?.json) }, notifications.map { text($0.alertData?.json) },
            additions.pushes.map(\.userID), additions.pushes.map(\.deviceID), additions.pushes.map(\.token),
            additions.pushes.map(\.notificationID), additions.pushes.map { String(decoding: $0.body, as: UTF8.self) },
            additions.pushes.map(\.createdAt)])
        var positions: [(userID: String, position: Int64)] = []
        for try await row in try await connection.run(statement, logger: logger) {
            positions.append(try row.decode((String, Int64).self))
        }
        return positions
    }

    /// Arrays cannot hold NULL here, so an absent ping or field travels as "" (never a value).
    /// The heads are found by `id = ANY`, an index scan: a join of users with the unnested list
    /// is planned as a scan of every user while the table is small.
    package enum WriteBatch: StatementText {
        package static let sql = """
            WITH contact_rows AS (
            \(UpsertContacts.sql)
            ), heads AS (
                UPDATE users SET seq = greatest(seq, ($11::bigint[])[array_position($10::text[], id)])
                WHERE id = ANY($10::text[])
            ), new_events AS (
                INSERT INTO events (user_id, seq, body) SELECT * FROM unnest($12::text[], $13::bigint[], $14::text[])
            ), new_pushes AS (
                INSERT INTO pushes (user_id, device_id, token, notification_id, body, created_at)
                SELECT * FROM unnest($27::text[], $28::text[], $29::text[], $30::text[], $31::text[], $32::bigint[])
                ON CONFLICT (notification_id, token) DO NOTHING
            ), new_notifications AS (
                INSERT INTO notifications (id, user_id, type, title, message, timestamp, is_read, related_contact_id,
                                           related_alert_id, related_ping_id, contact_data, alert_data)
                SELECT i, u, t, ti, m, ts, r, NULLIF(rc, ''), NULLIF(ra, ''), NULLIF(rp, ''), NULLIF(cd, ''),
                       NULLIF(ad, '')
                FROM unnest($15::text[], $16::text[], $17::text[], $18::text[], $19::text[], $20::bigint[],
                            $21::boolean[], $22::text[], $23::text[], $24::text[], $25::text[], $26::text[])
                     AS rows(i, u, t, ti, m, ts, r, rc, ra, rp, cd, ad)
                RETURNING user_id, position
            )
            SELECT user_id, position FROM new_notifications
            """
    }
}
