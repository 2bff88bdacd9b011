import LifeSignalEngine
import LifeSignalProtocol
import PostgresNIO

/// PROTOCOL §12 on a cluster: a request with an `opId` is kept in the transaction of its effects,
/// and one whose `opId` is kept is answered from it. Both happen under the user's row lock, which
/// every step of the user takes first, so two brokers given the same `opId` at once run it once.
extension ClusterExecutor {
    /// A request's `opId`, to be kept with what it comes to.
    public struct OperationKeep: Sendable, Equatable {
        public let userID: String
        public let opID: String
        public let op: String

        public init(userID: String, opID: String, op: String) {
            self.userID = userID
            self.opID = opID
            self.op = op
        }

        func change(_ answer: KeptOutcome.Answer, now: Int64) -> [StoreChange] {
            var changes: [StoreChange] = [
                .keepOutcome(userID: userID, KeptOutcome(opID: opID, op: op, answer: answer, keptAt: now)),
            ]
            // The prune reads the user's newest 1,000: not on every keep. The bounds are floors, so
            // pruning a little late keeps no less than §12 asks.
            if now % 64 == 0 {
                changes.append(.pruneKeptOutcomes(userID: userID, keepNewest: KeptOperations.keptAtLeast,
                                                  keptBefore: now - KeptOperations.keptForMs))
            }
            return changes
        }
    }

    /// The request's `opId` is kept: its answer, to give again under the new rid. Thrown out of
    /// the transaction (which wrote nothing).
    public struct KeptAnswerFound: Error, Sendable {
        public let answer: KeptOutcome.Answer
    }

    /// What is kept under the `opId`s of `keeps`, read in the caller's transaction (after the
    /// users' locks), by user and `opId`.
    static func keptOperations(_ keeps: [OperationKeep], on connection: PostgresConnection, logger: Logger)
        async throws -> [String: [String: KeptOutcome]]
    {
        guard !keeps.isEmpty else { return [:] }
        let (users, opIDs) = (keeps.map(\.userID), keeps.map(\.opID))
        var kept: [String: [String: KeptOutcome]] = [:]
        let rows = try await connection.query("""
            SELECT user_id, op_id, op, answer, kept_at FROM kept_outcomes
            WHERE (user_id, op_id) IN (SELECT * FROM unnest(\(users)::text[], \(opIDs)::text[]))
            """, logger: logger)
        for try await row in rows {
            let (userID, opID, op, answer, keptAt) = try row.decode((String, String, String, ByteBuffer, Int64).self)
            if let answer = KeptOutcome.answer(stored: Array(answer.readableBytesView)) {
                kept[userID, default: [:]][opID] = KeptOutcome(opID: opID, op: op, answer: answer, keptAt: keptAt)
            }
        }
        return kept
    }

    /// Throws what a kept `opId` calls for (`KeptAnswerFound`, or `bad_request` for another op);
    /// returns when the request is to run.
    static func checkKept(_ keep: OperationKeep?, on connection: PostgresConnection, logger: Logger) async throws {
        guard let keep else { return }
        let kept = try await keptOperations([keep], on: connection, logger: logger)[keep.userID]?[keep.opID]
        switch OperationDecision.of(op: keep.op, opID: keep.opID, kept: kept?.operation) {
        case .run: return
        case .refuse(let error): throw error
        case .answerKept: throw KeptAnswerFound(answer: kept!.answer)
        }
    }

    /// `changes` of `userID` (a push token's, which takes no lock of its own), kept under `keep`:
    /// with an `opId` the user's row is locked first, so the check and the keeping are one.
    public func commit(_ changes: [StoreChange], keeping keep: OperationKeep?, answer: JSONObject = [:],
                       now: Int64) async throws {
        guard let keep else { return try await commit(changes) }
        let logger = self.logger
        try await Self.unwrapped { try await database.withTransaction(logger: logger) { connection in
            try await connection.query("SELECT 1 FROM users WHERE id = \(keep.userID) FOR UPDATE", logger: logger).drain()
            try await Self.checkKept(keep, on: connection, logger: logger)
            _ = try await ClusterRows.commit(changes + keep.change(.ok(answer), now: now), on: connection, logger: logger)
        } }
    }
}
