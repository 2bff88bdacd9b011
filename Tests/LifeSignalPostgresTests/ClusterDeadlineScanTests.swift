@testable import LifeSignalBroker
import LifeSignalPostgres
import LifeSignalProtocol
import LifeSignalRules
import PostgresNIO
import Testing

/// The cluster's deadline scan (issue 24): one user whose step fails does not keep the others'
/// missed check-ins from being marked.
@Suite struct ClusterDeadlineScanTests {
    @Test func aUserWhoseStepFailsDoesNotStopTheScan() async throws {
        try await TestDatabase.withFresh { url in
            let database = try await TestDatabase.open(url)
            defer { Task { await database.close() } }
            try await database.migrate()
            let executor = ClusterExecutor(database: database, logger: TestDatabase.logger)
            let interval: Int64 = 60
            for (name, checkedInAt) in [("Alice", Int64(1_000)), ("Bob", 2_000)] {
                try await executor.create(User(id: "u_\(name)", name: name, qrCode: "qr_\(name)",
                                               checkInIntervalSec: interval, createdAt: 0), tokenHash: [1])
                _ = try await executor.perform(as: "u_\(name)", involving: .responders, now: checkedInAt) {
                    step throws(ProtocolError) in try SafetyRules.checkIn(by: "u_\(name)", in: &step)
                }
            }
            // Alice's row cannot be written: her deadline, due first, fails.
            for statement in [
                "CREATE FUNCTION refuse_write() RETURNS trigger AS $$ BEGIN RAISE EXCEPTION 'broken row'; END $$ LANGUAGE plpgsql",
                "CREATE TRIGGER broken_alice BEFORE UPDATE ON users FOR EACH ROW WHEN (OLD.id = 'u_Alice') EXECUTE FUNCTION refuse_write()",
            ] {
                try await database.withConnection { try await $0.query(PostgresQuery(unsafeSQL: statement), logger: TestDatabase.logger).drain() }
            }

            let scan = try await executor.fireDue(now: 2_000 + interval * 1_000 + 1)
            #expect(scan.fired.map(\.userID) == ["u_Bob"])
            #expect(scan.fired.first?.result == true)
            #expect(scan.failed.map(\.userID) == ["u_Alice"])
            #expect(scan.failed.first?.error.contains("broken row") == true, "\(scan.failed)")
            #expect(try await executor.accounts(["u_Bob"]).first?.user.isNonResponsive == true)
        }
    }
}
