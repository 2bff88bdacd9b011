import LifeSignalProtocol
import LifeSignalPush
import LifeSignalRules
import PostgresNIO

extension ClusterExecutor {
    /// Fires the missed check-ins due by `now` (§8), each in its own transaction with the user's
    /// responders locked. Every broker runs this; a user another broker is firing right now is
    /// skipped (SKIP LOCKED), and the rule, run under the user's lock, fires a deadline once
    /// however many brokers reach it. A broker killed mid-way rolls back and another fires it.
    /// Returns the users marked non-responsive here.
    public func fireDueDeadlines(now: Int64, limit: Int = 100) async throws -> [String] {
        try await fireDue(now: now, limit: limit).fired.filter(\.result).map(\.userID)
    }

    /// A deadline this broker reached: whether it fired here, and what that committed.
    public struct FiredDeadline: Sendable {
        public let userID: String
        /// The deadline missed (ms since the epoch).
        public let deadline: Int64
        public let result: Bool
        public let events: [CommittedEvent]
        public let pushes: [PushMessage]
        /// Notifications stored (metrics).
        public let notifications: Int
    }

    /// What one scan of due deadlines did: the deadlines it reached, and the users whose step
    /// failed (fired at a later scan).
    public struct DeadlineScan: Sendable {
        public var fired: [FiredDeadline] = []
        public var failed: [(userID: String, error: String)] = []
    }

    /// As `fireDueDeadlines`, with each step's events and pushes for delivery. A user whose step
    /// fails does not stop the scan: the others are fired, and the failures returned.
    public func fireDue(now: Int64, limit: Int = 100) async throws -> DeadlineScan {
        let logger = self.logger
        let due = try await Self.unwrapped { try await database.withTransaction(logger: logger) { connection in
            var due: [(id: String, deadline: Int64)] = []
            let rows = try await connection.query("""
                SELECT id, check_in_deadline FROM users
                WHERE check_in_deadline <= \(now) AND NOT is_non_responsive
                ORDER BY check_in_deadline LIMIT \(Int64(limit)) FOR UPDATE SKIP LOCKED
                """, logger: logger)
            for try await (id, deadline) in rows.decode((String, Int64).self) { due.append((id, deadline)) }
            return due
        } }
        var scan = DeadlineScan()
        for (userID, deadline) in due {
            do {
                let commit = try await perform(as: userID, involving: .responders, now: now) {
                    step throws(ProtocolError) in
                    try SafetyRules.missedCheckIn(of: userID, deadline: deadline, in: &step)
                }
                scan.fired.append(FiredDeadline(userID: userID, deadline: deadline, result: commit.result,
                                                events: commit.events, pushes: commit.pushes,
                                                notifications: commit.notifications))
            } catch {
                scan.failed.append((userID, ClusterDatabase.reason(error)))
            }
        }
        return scan
    }
}
