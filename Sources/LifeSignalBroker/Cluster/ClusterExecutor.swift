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

    public init(database: ClusterDatabase, logger: Logger) {
        self.database = database
        self.logger = logger
    }

    /// Who a request of the user, whose account is given, touches besides them.
    public typealias Involving = @Sendable (Account) -> Set<String>

    /// Runs `rules` for a request of `userID` in one transaction. A `ProtocolError` from the rules
    /// rolls everything back and is thrown as it is.
    public func perform<Result: Sendable>(
        as userID: String, involving: @escaping Involving = { _ in [] }, now: Int64,
        _ rules: @escaping @Sendable (inout Step) throws(ProtocolError) -> Result
    ) async throws -> (result: Result, events: [CommittedEvent]) {
        var attempt = 0
        while true {
            do {
                return try await attemptStep(as: userID, involving: involving, now: now, rules)
            } catch let retry as ClusterRetry where attempt < Self.maxAttempts {
                attempt += 1
                logger.debug("step retried", metadata: ["lifesignal.user": "\(userID)", "lifesignal.reason": "\(retry)"])
            } catch let error as PSQLError where attempt < Self.maxAttempts && Self.isTransient(error) {
                attempt += 1
            }
        }
    }

    private static let maxAttempts = 8

    private func attemptStep<Result: Sendable>(
        as userID: String, involving: @escaping Involving, now: Int64,
        _ rules: @escaping @Sendable (inout Step) throws(ProtocolError) -> Result
    ) async throws -> (result: Result, events: [CommittedEvent]) {
        let logger = self.logger
        return try await Self.unwrapped { try await database.client.withTransaction(logger: logger) { connection in
            // Who is involved follows from the user's own account, read once without a lock to
            // know what to lock, and checked again under the lock.
            guard let guess = try await ClusterRows.accounts([userID], on: connection, logger: logger).first else {
                throw ProtocolError(.unauthenticated, "unknown user")
            }
            let ids = involving(guess).union([userID]).sorted()
            try await connection.query(
                "SELECT id FROM users WHERE id = ANY(\(ids)) ORDER BY id FOR UPDATE", logger: logger).drain()
            let accounts = try await ClusterRows.accounts(ids, on: connection, logger: logger)
            guard let actor = accounts.first(where: { $0.id == userID }) else {
                throw ProtocolError(.unauthenticated, "unknown user")
            }
            guard involving(actor).isSubset(of: Set(ids)) else { throw ClusterRetry.involvedChanged }
            var step = Step(now: now, accounts: accounts)
            let result = try rules(&step)
            let events = try await Self.write(step, on: connection, logger: logger)
            return (result, events)
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

    /// Writes a step's effects in its transaction: the changes, the notifications, and each
    /// user's events with the next seqs of their head row (all of a user's in one statement).
    static func write(_ step: Step, on connection: PostgresConnection, logger: Logger) async throws
        -> [CommittedEvent]
    {
        var pending: [String: [(name: String, data: JSONValue)]] = [:]
        for effect in step.effects {
            switch effect {
            case .store(let change):
                try await ClusterRows.apply(change, on: connection, logger: logger)
            case .event(let userID, let name, let data):
                pending[userID, default: []].append((name, data))
            case .notification(let userID, let notification):
                try await ClusterRows.insert(notification, for: userID, on: connection, logger: logger)
                pending[userID, default: []].append((EventName.notificationAdded, ["notification": notification.json]))
            }
        }
        var committed: [CommittedEvent] = []
        for userID in pending.keys.sorted() {
            let events = pending[userID]!
            let first = try await ClusterRows.takeSeqs(events.count, of: userID, on: connection, logger: logger)
            let frames = events.enumerated().map { offset, event in
                Outbound.event(seq: first + Int64(offset), name: event.name, data: event.data)
            }
            try await ClusterRows.appendEvents(
                frames.enumerated().map { (first + Int64($0.offset), String(decoding: $0.element.dropFirst(4), as: UTF8.self)) },
                of: userID, on: connection, logger: logger)
            for (offset, frame) in frames.enumerated() {
                committed.append(CommittedEvent(userID: userID, seq: first + Int64(offset), frame: frame))
            }
        }
        return committed
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
