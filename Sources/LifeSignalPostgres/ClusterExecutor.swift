import LifeSignalEngine
import LifeSignalProtocol
import LifeSignalPush
import LifeSignalRules
import Logging
import PostgresNIO

/// An event as committed: what a device of `userID` is sent, in seq order.
public struct CommittedEvent: Sendable, Equatable {
    public let userID: String
    public let seq: Int64
    public let frame: [UInt8]

    package init(userID: String, seq: Int64, frame: [UInt8]) {
        self.userID = userID
        self.seq = seq
        self.frame = frame
    }
}

/// The cluster executor of the rules (ARCHITECTURE.md: "Rules are plain functions", "The cluster"):
/// one PostgreSQL transaction per request, which locks the head rows of every user it touches in
/// ascending id order, reads their accounts under that lock, runs the same rules as the embedded
/// executor, and writes their effects with seqs taken from the head rows. Commit is the durability
/// point; any broker may run it for any user, and PostgreSQL keeps each user's seq gapless.
public struct ClusterExecutor: Sendable {
    public let database: ClusterDatabase
    package let logger: Logger
    /// Events kept per user for `resume` (§6) and notifications kept per user (§10).
    package let eventRetention: Int
    package let notificationHistory: Int

    public init(database: ClusterDatabase, logger: Logger, eventRetention: Int = 1_000, notificationHistory: Int = 1_000) {
        self.database = database
        self.logger = logger
        self.eventRetention = eventRetention
        self.notificationHistory = notificationHistory
    }

    /// What one committed step produced: the rules' result, each user's events in seq order,
    /// and the pushes recorded for offline devices (to hand to the push gateway).
    public struct Commit<Result: Sendable>: Sendable {
        public let result: Result
        public let events: [CommittedEvent]
        public let pushes: [PushMessage]
        /// Notifications stored (metrics).
        public let notifications: Int
    }

    /// Runs `rules` for a request of `userID` in one transaction. A `ProtocolError` from the rules
    /// rolls everything back and is thrown as it is.
    public func perform<Result: Sendable>(
        as userID: String, involving: Involved = .nobody, now: Int64,
        _ rules: @escaping @Sendable (inout Step) throws(ProtocolError) -> Result
    ) async throws -> Commit<Result> {
        try await performStep(as: userID, involving: involving, now: now, keeping: nil, reading: { _, _ in }) {
            (step, _: Void) throws(ProtocolError) in try rules(&step)
        }
    }

    /// As above, with rows outside the accounts (a notification, say) read by `reading` under the
    /// same lock and handed to the rules.
    public func perform<Extra: Sendable, Result: Sendable>(
        as userID: String, involving: Involved = .nobody, now: Int64,
        reading: @escaping @Sendable (PostgresConnection, Logger) async throws -> Extra,
        _ rules: @escaping @Sendable (inout Step, Extra) throws(ProtocolError) -> Result
    ) async throws -> Commit<Result> {
        try await performStep(as: userID, involving: involving, now: now, keeping: nil, reading: reading, rules)
    }

    /// A request's step under its `opId` (§12): what is kept under it is thrown instead
    /// (`KeptAnswerFound`), or the outcome is kept, the reply with the step's effects or the
    /// refusal on its own.
    public func perform(
        as userID: String, involving: Involved = .nobody, now: Int64, keeping keep: OperationKeep?,
        _ rules: @escaping @Sendable (inout Step) throws(ProtocolError) -> Reply
    ) async throws -> Commit<Reply> {
        try await performStep(as: userID, involving: involving, now: now, keeping: keep.map { ($0, \.fields) },
                              reading: { _, _ in }) { (step, _: Void) throws(ProtocolError) in try rules(&step) }
    }

    /// As above, with rows read by `reading` under the same lock.
    public func perform<Extra: Sendable>(
        as userID: String, involving: Involved = .nobody, now: Int64, keeping keep: OperationKeep?,
        reading: @escaping @Sendable (PostgresConnection, Logger) async throws -> Extra,
        _ rules: @escaping @Sendable (inout Step, Extra) throws(ProtocolError) -> Reply
    ) async throws -> Commit<Reply> {
        try await performStep(as: userID, involving: involving, now: now, keeping: keep.map { ($0, \.fields) },
                              reading: reading, rules)
    }

    /// `keep`: the `opId`, and the fields of the answer a result is kept as.
    private func performStep<Extra: Sendable, Result: Sendable>(
        as userID: String, involving: Involved, now: Int64,
        keeping keep: (OperationKeep, @Sendable (Result) -> JSONObject)?,
        reading: @escaping @Sendable (PostgresConnection, Logger) async throws -> Extra,
        _ rules: @escaping @Sendable (inout Step, Extra) throws(ProtocolError) -> Result
    ) async throws -> Commit<Result> {
        var attempt = 0
        while true {
            do {
                switch try await attemptStep(as: userID, involving: involving, now: now, keeping: keep, reading: reading,
                                             rules) {
                case .committed(let commit): return commit
                case .refused(let error): throw error
                }
            } catch let retry as ClusterRetry where attempt < Self.maxAttempts {
                attempt += 1
                logger.debug("step retried", metadata: ["lifesignal.user": "\(userID)", "lifesignal.reason": "\(retry)"])
            } catch let error as PSQLError where attempt < Self.maxAttempts && Self.isTransient(error) {
                attempt += 1
            }
        }
    }

    private static let maxAttempts = 8

    /// One step in one transaction: lock the head rows of everyone involved in ascending id order
    /// (reading their documents in the same statement), read their contacts, run the rules, write
    /// their effects. About eight round trips for a ping.
    /// How one attempt ended: a refusal with an `opId` is kept, so it ends the transaction with a
    /// commit rather than a rollback.
    private enum StepEnd<Result: Sendable>: Sendable {
        case committed(Commit<Result>)
        case refused(ProtocolError)
    }

    private func attemptStep<Extra: Sendable, Result: Sendable>(
        as userID: String, involving: Involved, now: Int64,
        keeping keep: (OperationKeep, @Sendable (Result) -> JSONObject)?,
        reading: @escaping @Sendable (PostgresConnection, Logger) async throws -> Extra,
        _ rules: @escaping @Sendable (inout Step, Extra) throws(ProtocolError) -> Result
    ) async throws -> StepEnd<Result> {
        let (logger, limits) = (self.logger, (eventRetention, notificationHistory))
        return try await Self.unwrapped { try await database.withTransaction(logger: logger) { connection in
            let (ids, accounts, heads) = try await ClusterRows.lockInvolved([(userID, involving)], on: connection,
                                                                            logger: logger)
            try await Self.checkKept(keep?.0, on: connection, logger: logger)
            let extra = try await reading(connection, logger)
            let withExtra = { (step: inout Step) throws(ProtocolError) in try rules(&step, extra) }
            let steps = Self.run([(userID, involving, withExtra)], locked: ids, accounts: accounts, now: now)
            switch steps.runs[0] {
            case .ran(let result, _):
                let written = try await Self.write(steps.ran, heads: heads, eventRetention: limits.0,
                                                   notificationHistory: limits.1, on: connection, logger: logger)
                if let (keep, fields) = keep {
                    _ = try await ClusterRows.commit(keep.change(.ok(fields(result)), now: now), on: connection, logger: logger)
                }
                return .committed(Commit(result: result, events: written.events, pushes: written.pushes,
                                         notifications: written.notifications))
            case .refused(let error):
                guard let keep = keep?.0 else { throw error }
                _ = try await ClusterRows.commit(keep.change(.refused(error), now: now), on: connection, logger: logger)
                return .refused(error)
            case .involvedChanged:
                throw ClusterRetry.involvedChanged
            }
        } }
    }

    /// The error of the transaction's body (a refusal of the rules, a retry) or of its commit,
    /// rather than postgres-nio's wrapper around it.
    package static func unwrapped<T>(_ transaction: () async throws -> T) async throws -> T {
        do {
            return try await transaction()
        } catch let error as PostgresTransactionError {
            throw error.closureError ?? error.commitError ?? error.beginError ?? error
        }
    }

    /// What `write` stored: every event in seq order per user, the pushes recorded, and for each
    /// step the last seq it gave each user.
    package struct Written {
        package var events: [CommittedEvent] = []
        package var pushes: [PushMessage] = []
        package var notifications = 0
        package var lastSeqs: [[String: Int64]] = []
    }

    /// Writes the effects of `steps`, in order, in their transaction, as the embedded engine
    /// records a step's: each event takes the next seq of its user's locked head (`EventLogHead`,
    /// with its retention), each notification is stored with its event and its pushes to the
    /// devices online on no live broker (read first, for all users at once). `ClusterRows.commit`
    /// writes the changes; then the notification history prunes what it no longer keeps.
    package static func write(_ steps: [Step], heads: [String: EventLogHead], eventRetention: Int,
                              notificationHistory: Int, on connection: PostgresConnection, logger: Logger) async throws
        -> Written
    {
        var written = Written(lastSeqs: Array(repeating: [:], count: steps.count))
        var logs = heads
        var changes: [StoreChange] = []
        let devices = try await pushableDevices(of: steps, on: connection, logger: logger)
        func lockedLog(of userID: String) throws {
            guard logs[userID] != nil else { throw ProtocolError(.internal, "user \(userID) was not locked") }
        }
        func committed(_ frame: [UInt8], of userID: String, step: Int) {
            let seq = logs[userID]!.lastSeq
            written.events.append(CommittedEvent(userID: userID, seq: seq, frame: frame))
            written.lastSeqs[step][userID] = seq
        }
        for (index, step) in steps.enumerated() {
            for effect in step.effects {
                switch effect {
                case .store(let change):
                    changes.append(StoreChange(change))
                case .event(let userID, let name, let data):
                    try lockedLog(of: userID)
                    let frame = logs[userID]!.append(name, data, of: userID, retention: eventRetention, to: &changes)
                    committed(frame, of: userID, step: index)
                case .notification(let userID, let notification):
                    try lockedLog(of: userID)
                    let (userDevices, online) = devices[userID] ?? ([], [])
                    let (frame, pushes) = logs[userID]!.appendNotification(
                        notification, of: userID, retention: eventRetention, devices: userDevices,
                        isOnline: online.contains, preferences: step.accounts[userID]?.user.preferences ?? Preferences(),
                        to: &changes)
                    committed(frame, of: userID, step: index)
                    written.pushes += pushes
                    written.notifications += 1
                }
            }
        }
        let positions = try await ClusterRows.commit(changes, on: connection, logger: logger)
        for (userID, position) in positions where position % 64 == 0 {
            try await ClusterRows.keepNewestNotifications(notificationHistory, of: userID, on: connection, logger: logger)
        }
        return written
    }

    /// The devices of every user the steps notify, and which of them are online on a live broker.
    private static func pushableDevices(of steps: [Step], on connection: PostgresConnection, logger: Logger)
        async throws -> [String: (devices: [DeviceRecord], online: Set<String>)]
    {
        var notified = Set<String>()
        for step in steps {
            for case .notification(let userID, _) in step.effects { notified.insert(userID) }
        }
        guard !notified.isEmpty else { return [:] }
        return try await ClusterRows.pushableDevices(of: Array(notified), on: connection, logger: logger)
    }

    /// A deadlock or a serialization failure: PostgreSQL rolled the transaction back; run it again.
    package static func isTransient(_ error: PSQLError) -> Bool {
        guard let code = error.serverInfo?[.sqlState] else { return false }
        return code == "40P01" || code == "40001"
    }
}

package enum ClusterRetry: Error {
    /// The user's contacts changed between the unlocked read and the lock.
    case involvedChanged
}
