import Logging
import PostgresNIO

/// The cluster schema's versions, applied in order, each in its own transaction. Brokers that start
/// together on an empty database all migrate: the table lock makes them take turns, and the later
/// ones find nothing left to do. No advisory locks (ARCHITECTURE.md, "The cluster": only standard
/// SQL).
public struct SchemaMigration: Sendable {
    public let version: Int
    public let name: String
    /// One statement each (the extended protocol takes one at a time).
    public let statements: [String]
}

extension ClusterDatabase {
    /// Brings the schema up to `SchemaMigration.all`; returns the versions this call applied.
    @discardableResult
    public func migrate() async throws -> [Int] {
        do {
            try await createMigrationsTable()
            return try await applyMissingMigrations()
        } catch let error as PostgresStoreError {
            throw error
        } catch {
            throw PostgresStoreError.migrationFailed(Self.reason(error))
        }
    }

    /// The versions applied so far.
    public func appliedMigrations() async throws -> [Int] {
        var versions: [Int] = []
        let rows = try await client.query("SELECT version FROM schema_migrations ORDER BY version", logger: logger)
        for try await version in rows.decode(Int.self) { versions.append(version) }
        return versions
    }

    /// Servers creating the table at once race inside PostgreSQL's catalog, and all but one
    /// fail even with IF NOT EXISTS; for them the table is there afterwards, which is all we need.
    private func createMigrationsTable() async throws {
        do {
            try await client.execute("""
                CREATE TABLE IF NOT EXISTS schema_migrations (
                    version integer PRIMARY KEY,
                    name text NOT NULL,
                    applied_at timestamptz NOT NULL DEFAULT now()
                )
                """, logger: logger)
        } catch {
            let rows = try await client.query("SELECT to_regclass('schema_migrations') IS NOT NULL", logger: logger)
            var exists = false
            for try await found in rows.decode(Bool.self) { exists = found }
            guard exists else { throw error }
        }
    }

    private func applyMissingMigrations() async throws -> [Int] {
        let logger = self.logger
        return try await client.withTransaction(logger: logger) { connection in
            try await connection.execute("LOCK TABLE schema_migrations IN EXCLUSIVE MODE", logger: logger)
            var applied: Set<Int> = []
            for try await version in try await connection.query("SELECT version FROM schema_migrations",
                                                                 logger: logger).decode(Int.self) {
                applied.insert(version)
            }
            var now: [Int] = []
            for migration in SchemaMigration.all where !applied.contains(migration.version) {
                for statement in migration.statements {
                    try await connection.execute(PostgresQuery(unsafeSQL: statement), logger: logger)
                }
                try await connection.execute(
                    "INSERT INTO schema_migrations (version, name) VALUES (\(migration.version), \(migration.name))",
                    logger: logger)
                logger.info("schema migrated", metadata: ["lifesignal.version": .stringConvertible(migration.version)])
                now.append(migration.version)
            }
            return now
        }
    }
}
