import LifeSignalProtocol
import LifeSignalRules
import PostgresNIO

extension ClusterExecutor {
    /// `register`: a new user and their head row (seq 0).
    public func create(_ user: User, tokenHash: [UInt8]) async throws {
        try await commit([.createUser(user, tokenHash: tokenHash)])
    }

    /// The committed events of `userID` after `afterSeq`, in order: what a device resumes with.
    public func events(of userID: String, after afterSeq: Int64) async throws -> [(seq: Int64, body: String)] {
        try await collect("SELECT seq, body FROM events WHERE user_id = \(userID) AND seq > \(afterSeq) ORDER BY seq") {
            let (seq, body) = try $0.decode((Int64, String).self)
            return (seq: seq, body: body)
        }
    }

    /// The accounts of `ids` as committed now (no lock): for checks and snapshots.
    public func accounts(_ ids: [String]) async throws -> [Account] {
        let logger = self.logger
        return try await database.withConnection { connection in
            try await ClusterRows.accounts(ids, on: connection, logger: logger)
        }
    }
}

extension ClusterExecutor {
    /// The committed events of several users, each after its own seq, in one query: what a
    /// broker's feeds read after hints for many users.
    public func events(after seqs: [String: Int64]) async throws -> [String: [(seq: Int64, body: String)]] {
        let rows = try await collect(Prepared<EventsAfter>(Array(seqs.keys), Array(seqs.values))) {
            try $0.decode((String, Int64, String).self)
        }
        var events: [String: [(seq: Int64, body: String)]] = [:]
        for (userID, seq, body) in rows { events[userID, default: []].append((seq, body)) }
        return events
    }

    /// An index scan per user (LATERAL): a plain join of the list with the log is planned as a
    /// scan of the whole log once the list is long.
    package enum EventsAfter: StatementText {
        package static let sql = """
            SELECT w.user_id, e.seq, e.body
            FROM unnest($1::text[], $2::bigint[]) AS w(user_id, after)
            CROSS JOIN LATERAL (SELECT seq, body FROM events
                                WHERE user_id = w.user_id AND seq > w.after ORDER BY seq) e
            ORDER BY w.user_id, e.seq
            """
    }
}
