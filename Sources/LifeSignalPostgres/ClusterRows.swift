import LifeSignalEngine
import LifeSignalProtocol
import LifeSignalRules
import PostgresNIO

/// Reading and writing the rows the rules need, on one connection inside a transaction.
package enum ClusterRows {
    fileprivate static let userColumns = """
        id, name, phone, qr_code, check_in_interval_sec, last_check_in_at, check_in_deadline, is_non_responsive,
        alert_id, alert_started_at, alert_message, push_enabled, muted_types, created_at, seq, oldest_retained_seq
        """

    package enum ReadUsers: StatementText {
        package static let sql = "SELECT \(userColumns) FROM users WHERE id = ANY($1::text[])"
    }

    /// In ascending id order, so that steps touching the same users never deadlock.
    package enum LockUsers: StatementText {
        package static let sql = "SELECT \(userColumns) FROM users WHERE id = ANY($1::text[]) ORDER BY id FOR UPDATE"
    }

    package enum ReadContacts: StatementText {
        package static let sql = """
            SELECT user_id, contact_id, is_responder, is_dependent, added_at,
                   incoming_ping_id, incoming_ping_at, outgoing_ping_id, outgoing_ping_at
            FROM contacts WHERE user_id = ANY($1::text[])
            """
    }

    /// The accounts of `ids` that exist: each user's document and their side of each relationship.
    package static func accounts(_ ids: [String], on connection: PostgresConnection, logger: Logger) async throws
        -> [Account]
    {
        try await accounts(ids, locking: false, on: connection, logger: logger).accounts
    }

    /// Locks every user the requests involve, in ascending id order, and reads their accounts
    /// under the lock: each requester, the users it names, and those its own contacts make
    /// involved (read once, without a lock, for all requesters at once). Returns whom it locked.
    package static func lockInvolved(_ requests: [(userID: String, involving: Involved)], on connection: PostgresConnection,
                             logger: Logger) async throws -> (ids: Set<String>, accounts: [Account], heads: [String: EventLogHead])
    {
        var ids = Set(requests.map(\.userID))
        for case .named(let named) in requests.map(\.involving) { ids.formUnion(named) }
        let derived = requests.filter { !$0.involving.isNamed }
        if !derived.isEmpty {
            let contacts = try await contacts(of: Array(Set(derived.map(\.userID))), on: connection, logger: logger)
            for request in derived { ids.formUnion(request.involving.ids(in: contacts[request.userID] ?? [:])) }
        }
        let (accounts, heads) = try await lockedAccounts(ids.sorted(), on: connection, logger: logger)
        return (ids, accounts, heads)
    }

    /// The accounts of `ids` with their head rows locked, in ascending id order (so that steps
    /// touching the same users never deadlock), in one statement with the documents.
    package static func lockedAccounts(_ ids: [String], on connection: PostgresConnection, logger: Logger) async throws
        -> (accounts: [Account], heads: [String: EventLogHead])
    {
        try await accounts(ids, locking: true, on: connection, logger: logger)
    }

    private static func accounts(_ ids: [String], locking: Bool, on connection: PostgresConnection, logger: Logger)
        async throws -> (accounts: [Account], heads: [String: EventLogHead])
    {
        var users: [User] = []
        var heads: [String: EventLogHead] = [:]
        let userRows = locking
            ? try await connection.run(Prepared<LockUsers>(ids), logger: logger)
            : try await connection.run(Prepared<ReadUsers>(ids), logger: logger)
        for try await row in userRows {
            let cells = row.makeRandomAccess()
            let user = try user(from: cells)
            users.append(user)
            heads[user.id] = EventLogHead(lastSeq: try cells["seq"].decode(Int64.self),
                                          oldestRetained: try cells["oldest_retained_seq"].decode(Int64.self))
        }
        let contacts = try await contacts(of: ids, on: connection, logger: logger)
        return (users.map { Account(user: $0, contacts: contacts[$0.id] ?? [:]) }, heads)
    }

    /// Each of `ids`' side of their relationships, by user and contact.
    package static func contacts(of ids: [String], on connection: PostgresConnection, logger: Logger) async throws
        -> [String: [String: ContactRecord]]
    {
        var contacts: [String: [String: ContactRecord]] = [:]
        for try await row in try await connection.run(Prepared<ReadContacts>(ids), logger: logger) {
            let record = try contact(from: row.makeRandomAccess())
            contacts[record.userID, default: [:]][record.contactID] = record
        }
        return contacts
    }

    private static func user(from row: PostgresRandomAccessRow) throws -> User {
        let alertID = try row["alert_id"].decode(String?.self)
        let muted = try row["muted_types"].decode(String.self)
        return User(
            id: try row["id"].decode(String.self), name: try row["name"].decode(String.self),
            phone: try row["phone"].decode(String?.self), qrCode: try row["qr_code"].decode(String.self),
            checkInIntervalSec: try row["check_in_interval_sec"].decode(Int64.self),
            lastCheckInAt: try row["last_check_in_at"].decode(Int64?.self),
            checkInDeadline: try row["check_in_deadline"].decode(Int64?.self),
            isNonResponsive: try row["is_non_responsive"].decode(Bool.self),
            alert: try alertID.map {
                AlertInfo(id: $0, startedAt: try row["alert_started_at"].decode(Int64.self),
                          message: try row["alert_message"].decode(String?.self))
            },
            preferences: Preferences(
                push: try row["push_enabled"].decode(Bool.self),
                mutedTypes: muted.split(separator: ",").compactMap { NotificationType(rawValue: String($0)) }),
            createdAt: try row["created_at"].decode(Int64.self))
    }

    private static func contact(from row: PostgresRandomAccessRow) throws -> ContactRecord {
        func ping(_ prefix: String) throws -> PendingPing? {
            guard let id = try row["\(prefix)_ping_id"].decode(String?.self) else { return nil }
            return PendingPing(id: id, sentAt: try row["\(prefix)_ping_at"].decode(Int64.self))
        }
        return ContactRecord(
            userID: try row["user_id"].decode(String.self), contactID: try row["contact_id"].decode(String.self),
            isResponder: try row["is_responder"].decode(Bool.self), isDependent: try row["is_dependent"].decode(Bool.self),
            addedAt: try row["added_at"].decode(Int64.self), incomingPing: try ping("incoming"),
            outgoingPing: try ping("outgoing"))
    }

    package static func insert(_ user: User, tokenHash: [UInt8], on connection: PostgresConnection, logger: Logger)
        async throws
    {
        try await connection.query("""
            INSERT INTO users (id, name, phone, qr_code, token_hash, check_in_interval_sec, created_at)
            VALUES (\(user.id), \(user.name), \(user.phone), \(user.qrCode), \(ByteBuffer(bytes: tokenHash)),
                    \(user.checkInIntervalSec), \(user.createdAt))
            """, logger: logger).drain()
        try await update(user, on: connection, logger: logger)
    }

    /// `UpsertContacts`' nine arrays ($1…$9) for `records`, the last record of each row only: one
    /// statement may not change a row twice.
    package static func contactBindings(_ records: [ContactRecord]) -> [any PostgresDynamicTypeEncodable] {
        var last: [String: Int] = [:]
        for (index, record) in records.enumerated() { last[record.userID + "\u{0}" + record.contactID] = index }
        let rows = last.values.sorted().map { records[$0] }
        return [rows.map(\.userID), rows.map(\.contactID), rows.map(\.isResponder), rows.map(\.isDependent),
                rows.map(\.addedAt), rows.map { $0.incomingPing?.id ?? "" }, rows.map { $0.incomingPing?.sentAt ?? 0 },
                rows.map { $0.outgoingPing?.id ?? "" }, rows.map { $0.outgoingPing?.sentAt ?? 0 }]
    }

    package enum UpsertContacts: StatementText {
        package static let sql = """
            INSERT INTO contacts (user_id, contact_id, is_responder, is_dependent, added_at,
                                  incoming_ping_id, incoming_ping_at, outgoing_ping_id, outgoing_ping_at)
            SELECT u, c, r, d, a, NULLIF(ii, ''), CASE WHEN ii = '' THEN NULL ELSE ia END,
                   NULLIF(oi, ''), CASE WHEN oi = '' THEN NULL ELSE oa END
            FROM unnest($1::text[], $2::text[], $3::boolean[], $4::boolean[], $5::bigint[],
                        $6::text[], $7::bigint[], $8::text[], $9::bigint[])
                 AS rows(u, c, r, d, a, ii, ia, oi, oa)
            ON CONFLICT (user_id, contact_id) DO UPDATE SET
                is_responder = excluded.is_responder, is_dependent = excluded.is_dependent, added_at = excluded.added_at,
                incoming_ping_id = excluded.incoming_ping_id, incoming_ping_at = excluded.incoming_ping_at,
                outgoing_ping_id = excluded.outgoing_ping_id, outgoing_ping_at = excluded.outgoing_ping_at
            """
    }

    package static func update(_ user: User, on connection: PostgresConnection, logger: Logger) async throws {
        let muted = user.preferences.mutedTypes.map(\.rawValue).joined(separator: ",")
        try await connection.query("""
            UPDATE users SET name = \(user.name), phone = \(user.phone), qr_code = \(user.qrCode),
                check_in_interval_sec = \(user.checkInIntervalSec), last_check_in_at = \(user.lastCheckInAt),
                check_in_deadline = \(user.checkInDeadline), is_non_responsive = \(user.isNonResponsive),
                alert_id = \(user.alert?.id), alert_started_at = \(user.alert?.startedAt),
                alert_message = \(user.alert?.message), push_enabled = \(user.preferences.push), muted_types = \(muted)
            WHERE id = \(user.id)
            """, logger: logger).drain()
    }
}

extension AsyncSequence {
    /// Reads to the end, so the connection is free for the next statement.
    package func drain() async throws { for try await _ in self {} }
}
