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
        /// The request's `opId` (§12), kept with what the step comes to.
        public let keep: OperationKeep?

        public init(userID: String, involving: Involved, keep: OperationKeep? = nil,
                    rules: @escaping @Sendable (inout Step) throws(ProtocolError) -> Reply) {
            self.userID = userID
            self.involving = involving
            self.keep = keep
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
        /// Its `opId` was kept (§12), by an earlier request or an earlier step of this batch: it
        /// ran nothing, and is answered as that one was.
        case kept(KeptOutcome.Answer)
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
            let plan = try await KeptPlan(batch, kept: Self.keptOperations(batch.compactMap(\.keep), on: connection,
                                                                          logger: logger))
            let toRun = plan.running.map { batch[$0] }
            let steps = Self.run(toRun.map { ($0.userID, $0.involving, $0.rules) }, locked: ids, accounts: accounts,
                                 now: now)
            let written = try await Self.write(steps.ran, heads: heads, eventRetention: limits.0,
                                               notificationHistory: limits.1, on: connection, logger: logger)
            let ranOutcomes = zip(steps.runs, toRun).map { run, batched -> BatchOutcome in
                switch run {
                case .ran(let reply, let index): .committed(reply, lastSeq: written.lastSeqs[index][batched.userID])
                case .refused(let error): .refused(error)
                case .involvedChanged: .runAlone
                }
            }
            var keeping: [StoreChange] = []
            for (outcome, batched) in zip(ranOutcomes, toRun) {
                guard let keep = batched.keep else { continue }
                switch outcome {
                case .committed(let reply, _): keeping += keep.change(.ok(reply.fields), now: now)
                case .refused(let error): keeping += keep.change(.refused(error), now: now)
                case .runAlone, .kept: break
                }
            }
            _ = try await ClusterRows.commit(keeping, on: connection, logger: logger)
            let outcomes = plan.outcomes(ran: ranOutcomes)
            return BatchCommit(outcomes: outcomes, events: written.events, pushes: written.pushes,
                               notifications: written.notifications)
        } }
    }
}

/// Which steps of a batch run, and which are answered from what is kept under their `opId`
/// (§12): kept before the batch, or kept by an earlier step of it with the same `opId`.
private struct KeptPlan {
    private enum Fate {
        case run(Int)
        case decided(ClusterExecutor.BatchOutcome)
        case sameAs(Int)
    }

    private let fates: [Fate]
    /// The indexes of the steps to run, in order.
    let running: [Int]

    init(_ batch: [ClusterExecutor.BatchedStep], kept: [String: [String: KeptOutcome]]) {
        var fates: [Fate] = []
        var running: [Int] = []
        var firstOfOpID: [String: [String: Int]] = [:]
        for (index, step) in batch.enumerated() {
            guard let keep = step.keep else {
                fates.append(.run(running.count))
                running.append(index)
                continue
            }
            let earlier = firstOfOpID[keep.userID]?[keep.opID]
            let keptOp = kept[keep.userID]?[keep.opID]?.operation
                ?? earlier.map { KeptOperation(opID: keep.opID, op: batch[$0].keep!.op, keptAt: 0) }
            switch OperationDecision.of(op: keep.op, opID: keep.opID, kept: keptOp) {
            case .run:
                firstOfOpID[keep.userID, default: [:]][keep.opID] = index
                fates.append(.run(running.count))
                running.append(index)
            case .refuse(let error):
                fates.append(.decided(.refused(error)))
            case .answerKept:
                if let outcome = kept[keep.userID]?[keep.opID] {
                    fates.append(.decided(.kept(outcome.answer)))
                } else {
                    fates.append(.sameAs(earlier!))
                }
            }
        }
        self.fates = fates
        self.running = running
    }

    /// Every step's outcome, in the batch's order, given those of the steps that ran.
    func outcomes(ran: [ClusterExecutor.BatchOutcome]) -> [ClusterExecutor.BatchOutcome] {
        func outcome(_ fate: Fate) -> ClusterExecutor.BatchOutcome {
            switch fate {
            case .run(let position): return ran[position]
            case .decided(let outcome): return outcome
            case .sameAs(let index):
                switch outcome(fates[index]) {
                case .committed(let reply, _): return .kept(.ok(reply.fields))
                case .refused(let error): return .kept(.refused(error))
                case .runAlone: return .runAlone
                case .kept(let answer): return .kept(answer)
                }
            }
        }
        return fates.map(outcome)
    }
}
