import LifeSignalPostgres
import LifeSignalProtocol
import Logging
import PostgresNIO

/// An event as committed: what a device of `userID` is sent, in seq order.
public struct CommittedEvent: Sendable, Equatable {
    public let userID: String
    public let seq: Int64
    public let frame: [UInt8]
}

/// The cluster executor of the rules (DESIGN §6, §7): one PostgreSQL transaction per request,
/// which locks the head rows of every user it touches in ascending id order, reads their
/// accounts under that lock, runs the same rules as the embedded executor, and writes their
/// effects with seqs taken from the head rows. Commit is the durability point; any broker may
/// run it for any user, and PostgreSQL keeps each user's seq gapless.
public struct ClusterExecutor: Sendable {
    public let database: ClusterDatabase
    let logger: Logger
    /// Events kept per user for `resume` (§6) and notifications kept per user (§10).
    let eventRetention: Int
    let notificationHistory: Int

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
    }

    /// Runs `rules` for a request of `userID` in one transaction. A `ProtocolError` from the rules
    /// rolls everything back and is thrown as it is.
    public func perform<Result: Sendable>(
        as userID: String, involving: Involved = .nobody, now: Int64,
        _ rules: @escaping @Sendable (inout Step) throws(ProtocolError) -> Result
    ) async throws -> Commit<Result> {
        try await perform(as: userID, involving: involving, now: now, reading: { _, _ in }) {
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
        var attempt = 0
        while true {
            do {
                return try await attemptStep(as: userID, involving: involving, now: now, reading: reading, rules)
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
    private func attemptStep<Extra: Sendable, Result: Sendable>(
        as userID: String, involving: Involved, now: Int64,
        reading: @escaping @Sendable (PostgresConnection, Logger) async throws -> Extra,
        _ rules: @escaping @Sendable (inout Step, Extra) throws(ProtocolError) -> Result
    ) async throws -> Commit<Result> {
        let (logger, limits) = (self.logger, (eventRetention, notificationHistory))
        return try await Self.unwrapped { try await database.withTransaction(logger: logger) { connection in
            var ids: Set<String> = [userID]
            if case .named(let named) = involving {
                ids.formUnion(named)
            } else if !involving.isNamed {
                // Whom to lock follows from the user's own contacts, read once without a lock.
                let contacts = try await ClusterRows.contacts(of: [userID], on: connection, logger: logger)
                ids.formUnion(involving.ids(in: contacts[userID] ?? [:]))
            }
            let (accounts, heads) = try await ClusterRows.lockedAccounts(ids.sorted(), on: connection, logger: logger)
            guard let actor = accounts.first(where: { $0.id == userID }) else {
                throw ProtocolError(.unauthenticated, "unknown user")
            }
            guard involving.ids(in: actor.contacts).isSubset(of: ids) else { throw ClusterRetry.involvedChanged }
            let extra = try await reading(connection, logger)
            var step = Step(now: now, accounts: accounts)
            let result = try rules(&step, extra)
            let (events, pushes) = try await Self.write(step, heads: heads, eventRetention: limits.0,
                                                        notificationHistory: limits.1, on: connection, logger: logger)
            return Commit(result: result, events: events, pushes: pushes)
        } }
    }

    /// The error of the transaction's body (a refusal of the rules, a retry) or of its commit,
    /// rather than postgres-nio's wrapper around it.
    static func unwrapped<T>(_ transaction: () async throws -> T) async throws -> T {
        do {
            return try await transaction()
        } catch let error as PostgresTransactionError {
            throw error.closureError ?? error.commitError ?? error.beginError ?? error
        }
    }

    /// Writes a step's effects in its transaction: the changes (a run of contact rows in one
    /// statement), the notifications with their pushes, and every user's events with the seqs
    /// after their locked head, all in one statement; then prunes what retention no longer keeps.
    static func write(_ step: Step, heads: [String: ClusterRows.Head], eventRetention: Int, notificationHistory: Int,
                      on connection: PostgresConnection, logger: Logger) async throws
        -> (events: [CommittedEvent], pushes: [PushMessage])
    {
        var pending: [String: [(name: String, data: JSONValue)]] = [:]
        var pushes: [PushMessage] = []
        var contactRows: [ContactRecord] = []
        for effect in step.effects {
            if case .store(.upsertContact(let record)) = effect {
                contactRows.append(record)
                continue
            }
            try await ClusterRows.upsert(contactRows, on: connection, logger: logger)
            contactRows = []
            switch effect {
            case .store(let change):
                try await ClusterRows.apply(change, on: connection, logger: logger)
            case .event(let userID, let name, let data):
                pending[userID, default: []].append((name, data))
            case .notification(let userID, let notification):
                let position = try await ClusterRows.insert(notification, for: userID, on: connection, logger: logger)
                pending[userID, default: []].append((EventName.notificationAdded, ["notification": notification.json]))
                let (devices, online) = try await ClusterRows.pushableDevices(of: userID, on: connection, logger: logger)
                for push in PushSelection.messages(
                    for: notification, userID: userID, devices: devices, isOnline: online.contains,
                    preferences: step.accounts[userID]?.user.preferences ?? Preferences()) {
                    try await ClusterRows.record(push, on: connection, logger: logger)
                    pushes.append(push)
                }
                if position % 64 == 0 {
                    try await ClusterRows.keepNewestNotifications(notificationHistory, of: userID, on: connection,
                                                                  logger: logger)
                }
            }
        }
        try await ClusterRows.upsert(contactRows, on: connection, logger: logger)
        var committed: [CommittedEvent] = []
        var newHeads: [String: Int64] = [:]
        for userID in pending.keys.sorted() {
            guard let head = heads[userID] else { throw ProtocolError(.internal, "user \(userID) was not locked") }
            for (offset, event) in pending[userID]!.enumerated() {
                let seq = head.seq + 1 + Int64(offset)
                committed.append(CommittedEvent(userID: userID, seq: seq,
                                                frame: Outbound.event(seq: seq, name: event.name, data: event.data)))
                newHeads[userID] = seq
            }
        }
        try await ClusterRows.appendEvents(committed, heads: newHeads, on: connection, logger: logger)
        for (userID, newHead) in newHeads {
            try await ClusterRows.pruneEvents(of: userID, head: newHead, oldestRetained: heads[userID]!.oldestRetained,
                                              retention: eventRetention, on: connection, logger: logger)
        }
        return (committed, pushes)
    }

    /// A deadlock or a serialization failure: PostgreSQL rolled the transaction back; run it again.
    private static func isTransient(_ error: PSQLError) -> Bool {
        guard let code = error.serverInfo?[.sqlState] else { return false }
        return code == "40P01" || code == "40001"
    }
}

enum ClusterRetry: Error {
    /// The user's contacts changed between the unlocked read and the lock.
    case involvedChanged
}
