import LifeSignalEngine
import LifeSignalProtocol
import LifeSignalPush
import LifeSignalRules
import PostgresNIO

/// Several requests' steps in one transaction (ARCHITECTURE.md: "The cluster", batch per round
/// trip): the round trips of a step (lock, read, write events, commit) are paid once for the batch.
extension ClusterExecutor {
    /// One request's step, waiting to run in a batch.
    public struct BatchedStep: Sendable {
        public let userID: String
        public let involving: Involved
        public let rules: @Sendable (inout Step) throws(ProtocolError) -> Reply

        public init(userID: String, involving: Involved,
                    rules: @escaping @Sendable (inout Step) throws(ProtocolError) -> Reply) {
            self.userID = userID
            self.involving = involving
            self.rules = rules
        }
    }

    /// What became of one step of a batch.
    public enum BatchOutcome: Sendable {
        /// Committed with the batch; `lastSeq` is the last seq it gave its own user, if any.
        case committed(Reply, lastSeq: Int64?)
        /// The rules refused it; it changed nothing.
        case refused(ProtocolError)
        /// Whom it involves changed within the batch (a contact added by an earlier step): it
        /// changed nothing and is to be run on its own.
        case runAlone
    }

    /// The batch's outcomes, in the order of `steps`, and everything it committed.
    public struct BatchCommit: Sendable {
        public let outcomes: [BatchOutcome]
        public let events: [CommittedEvent]
        public let pushes: [PushMessage]
        /// Notifications stored (metrics).
        public let notifications: Int
    }

    /// Runs `steps` in order in one transaction, each against the accounts as the steps before it
    /// left them, as the embedded executor runs requests one after another in memory. Every user
    /// any step involves is locked at once, in ascending id order. A step the rules refuse leaves
    /// no trace; a failure of the database fails the whole batch, and nothing of it is committed.
    /// `deadline`: when the batch is given up, retries included (`ClusterDatabase.withConnection`).
    public func performBatch(_ steps: [BatchedStep], now: Int64, deadline: ContinuousClock.Instant? = nil)
        async throws -> BatchCommit
    {
        var attempt = 0
        while true {
            do {
                return try await attemptBatch(steps, now: now, deadline: deadline)
            } catch let error as PSQLError where attempt < Self.maxBatchAttempts && Self.isTransient(error) {
                attempt += 1
            }
        }
    }

    private static let maxBatchAttempts = 8

    private func attemptBatch(_ batch: [BatchedStep], now: Int64, deadline: ContinuousClock.Instant?) async throws
        -> BatchCommit
    {
        let (logger, limits) = (self.logger, (eventRetention, notificationHistory))
        return try await Self.unwrapped { try await database.withTransaction(logger: logger, deadline: deadline) {
            connection in
            let (ids, accounts, heads) = try await ClusterRows.lockInvolved(batch.map { ($0.userID, $0.involving) },
                                                                            on: connection, logger: logger)
            let steps = Self.run(batch.map { ($0.userID, $0.involving, $0.rules) }, locked: ids, accounts: accounts,
                                 now: now)
            let written = try await Self.write(steps.ran, heads: heads, eventRetention: limits.0,
                                               notificationHistory: limits.1, on: connection, logger: logger)
            let outcomes = zip(steps.runs, batch).map { run, batched -> BatchOutcome in
                switch run {
                case .ran(let reply, let index): .committed(reply, lastSeq: written.lastSeqs[index][batched.userID])
                case .refused(let error): .refused(error)
                case .involvedChanged: .runAlone
                }
            }
            return BatchCommit(outcomes: outcomes, events: written.events, pushes: written.pushes,
                               notifications: written.notifications)
        } }
    }
}
