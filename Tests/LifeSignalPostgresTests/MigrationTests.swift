import LifeSignalPostgres
import PostgresNIO
import Testing

/// Versioned migrations on a real PostgreSQL (scripts/test starts one).
@Suite struct MigrationTests {
    @Test func anEmptyDatabaseGetsEveryVersionOnceAndAgainIsANoOp() async throws {
        try await TestDatabase.withFresh { url in
            let database = try await TestDatabase.open(url)
            let all = SchemaMigration.all.map(\.version)
            #expect(try await database.migrate() == all)
            #expect(try await database.migrate() == [])
            #expect(try await database.appliedMigrations() == all)
            await database.close()
        }
    }

    @Test func brokersStartingTogetherMigrateOnce() async throws {
        try await TestDatabase.withFresh { url in
            let applied = try await withThrowingTaskGroup(of: [Int].self) { group in
                for _ in 0..<3 {
                    group.addTask {
                        let database = try await TestDatabase.open(url)
                        let applied = try await database.migrate()
                        await database.close()
                        return applied
                    }
                }
                return try await group.reduce(into: [Int]()) { $0 += $1 }
            }
            #expect(applied.sorted() == SchemaMigration.all.map(\.version))
            let database = try await TestDatabase.open(url)
            #expect(try await database.appliedMigrations() == SchemaMigration.all.map(\.version))
            await database.close()
        }
    }

    @Test func anUnreachableServerFailsFastAndSaysWhere() async throws {
        var url = try TestDatabase.serverURL
        url.port = 1  // nothing listens there
        url.password = "hunter2"
        let started = ContinuousClock.now
        await #expect {
            _ = try await ClusterDatabase.open(url, logger: TestDatabase.logger, timeout: .seconds(2))
        } throws: { error in
            guard case .unreachable(let why) = error as? PostgresStoreError else { return false }
            return why.contains("127.0.0.1:1") && !why.contains("hunter2")
        }
        // A guard against a hang, far above the 2 s asked for: not a timing assertion.
        #expect(ContinuousClock.now - started < .seconds(600))
    }

    /// ARCHITECTURE.md, "The cluster": the head row hands out gapless seqs under concurrent
    /// writers.
    @Test func theHeadRowGivesGaplessSeqsToConcurrentWriters() async throws {
        try await TestDatabase.withFresh { url in
            let database = try await TestDatabase.open(url)
            try await database.migrate()
            let logger = TestDatabase.logger
            try await database.client.query("""
                INSERT INTO users (id, name, qr_code, token_hash, check_in_interval_sec, created_at)
                VALUES ('u_a', 'A', 'qr_a', '\\x00', 86400, 0)
                """, logger: logger).drain()
            let seqs = try await withThrowingTaskGroup(of: [Int64].self) { group in
                for _ in 0..<8 {
                    group.addTask {
                        var mine: [Int64] = []
                        for _ in 0..<50 {
                            let rows = try await database.client.query(
                                "UPDATE users SET seq = seq + 1 WHERE id = \("u_a") RETURNING seq", logger: logger)
                            for try await seq in rows.decode(Int64.self) { mine.append(seq) }
                        }
                        return mine
                    }
                }
                return try await group.reduce(into: [Int64]()) { $0 += $1 }
            }
            #expect(seqs.sorted() == Array(1...400))
            await database.close()
        }
    }
}
