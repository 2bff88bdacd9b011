@testable import LifeSignalBroker
import LifeSignalPostgres
import LifeSignalProtocol
import LifeSignalRules
import PostgresNIO
import Testing

/// The cluster executor records pushes for devices online on no live broker (§7), and keeps
/// events and notifications within their retention (§6, §10).
@Suite struct ClusterPushAndRetentionTests {
    let cluster = ClusterExecutorTests()

    func sql(_ query: PostgresQuery, on executor: ClusterExecutor) async throws {
        try await executor.database.client.query(query, logger: TestDatabase.logger).drain()
    }

    func count(_ query: PostgresQuery, on executor: ClusterExecutor) async throws -> Int64 {
        var result: Int64 = -1
        for try await value in try await executor.database.client.query(query, logger: TestDatabase.logger)
            .decode(Int64.self) { result = value }
        return result
    }

    func aliceWatchesBob(on executor: ClusterExecutor) async throws {
        try await cluster.register(["Alice", "Bob"], on: executor)
        _ = try await executor.perform(as: "u_Alice", involving: .named(["u_Bob"]), now: 0) { step throws(ProtocolError) in
            try ContactRules.add("u_Bob", by: "u_Alice", qrCode: "qr_Bob", isResponder: false, isDependent: true,
                                 maxContacts: 0, in: &step)
        }
    }

    func ping(on executor: ClusterExecutor, at now: Int64) async throws -> ClusterExecutor.Commit<Reply> {
        try await executor.perform(as: "u_Alice", involving: .named(["u_Bob"]), now: now) { step throws(ProtocolError) in
            try PingRules.send(to: "u_Bob", by: "u_Alice", in: &step)
        }
    }

    @Test func onlyDevicesOnlineOnNoLiveBrokerArePushedOnce() async throws {
        try await cluster.withCluster(brokers: 1) { brokers in
            let executor = brokers[0]
            try await aliceWatchesBob(on: executor)
            try await sql("""
                INSERT INTO devices (user_id, device_id, push_token) VALUES
                    ('u_Bob', 'phone', 'token-phone'), ('u_Bob', 'tablet', 'token-tablet'), ('u_Bob', 'watch', NULL)
                """, on: executor)
            try await sql("INSERT INTO brokers (broker_id) VALUES ('b1')", on: executor)
            try await sql("INSERT INTO presence (user_id, device_id, broker_id) VALUES ('u_Bob', 'phone', 'b1')",
                          on: executor)
            try await executor.heartbeat(brokerID: "b1")  // live, however slow the test runs
            let first = try await ping(on: executor, at: 1_000)
            #expect(first.pushes.map(\.token) == ["token-tablet"])
            // Broker b1 stopped saying it is alive: its devices count as offline.
            try await sql("UPDATE brokers SET heartbeat_at = now() - interval '1 minute'", on: executor)
            let second = try await ping(on: executor, at: 2_000)
            #expect(second.pushes.map(\.token) == ["token-phone", "token-tablet"])
            #expect(try await count("SELECT count(*) FROM pushes", on: executor) == 3)
        }
    }

    @Test func eventsAndNotificationsStayWithinTheirRetention() async throws {
        try await TestDatabase.withFresh { url in
            let database = try await TestDatabase.open(url)
            try await database.migrate()
            let executor = ClusterExecutor(database: database, logger: TestDatabase.logger, eventRetention: 10,
                                           notificationHistory: 5)
            try await aliceWatchesBob(on: executor)
            for index in 1...80 { _ = try await ping(on: executor, at: Int64(index) * 1_000) }
            let head = try await count("SELECT seq FROM users WHERE id = 'u_Bob'", on: executor)
            let kept = try await executor.events(of: "u_Bob", after: 0).map(\.seq)
            #expect(kept.last == head)
            #expect(kept == Array((head - Int64(kept.count) + 1)...head), "the newest events, gapless")
            #expect(kept.count >= 10 && kept.count < 10 + 64)
            let notifications = try await count("SELECT count(*) FROM notifications WHERE user_id = 'u_Bob'",
                                                on: executor)
            #expect(notifications >= 5 && notifications < 5 + 64)
            await database.close()
        }
    }
}
