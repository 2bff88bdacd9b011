import Foundation
import GRDB

/// The embedded default store: SQLite through GRDB in WAL mode, `synchronous = FULL`
/// so that a committed transaction survives a crash or power loss.
public final class SQLiteStore: BrokerStore {
    let pool: DatabasePool
    private let writer: GroupCommitWriter

    /// Opens (creating if needed) `directory/lifesignal.sqlite` and runs pending migrations.
    public init(directory: String, scheduler: @escaping CompletionScheduler) throws {
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        var configuration = Configuration()
        configuration.prepareDatabase { db in
            try db.execute(sql: "PRAGMA synchronous = FULL")
            // Group commits write large batches; with SQLite's default 8 MiB cache they spill
            // dirty pages into the WAL mid-transaction and read them back.
            try db.execute(sql: "PRAGMA cache_size = -65536")
            // A checkpoint copies the WAL into the database; at SQLite's default of every 1,000
            // pages nearly every large group commit would pay for one.
            try db.execute(sql: "PRAGMA wal_autocheckpoint = 16384")
            // What a statement or savepoint may roll back (savepoints only when a batch is retried
            // one write at a time) goes to a statement journal, by default a temporary file.
            try db.execute(sql: "PRAGMA temp_store = MEMORY")
        }
        configuration.busyMode = .timeout(5)
        // The schema's REFERENCES stay as documentation; checking them cost about a twelfth of
        // the store's CPU per ping. Every row is written for a user the broker has loaded, and
        // no user is ever deleted, so no check could fail and no cascade could run.
        configuration.foreignKeysEnabled = false
        let path = Self.path(in: directory)
        pool = try DatabasePool(path: path, configuration: configuration)
        try SQLiteSchema.migrator.migrate(pool)
        writer = GroupCommitWriter(pool: pool, scheduler: scheduler)
    }

    /// The database file of the store in `directory`; readers such as `PushLog` open it too.
    static func path(in directory: String) -> String {
        (directory as NSString).appendingPathComponent("lifesignal.sqlite")
    }

    public func submit(_ write: StoreWrite, completion: @escaping @Sendable (Result<StoreWriteResult, Error>) -> Void) {
        writer.submit(write, completion: completion)
    }

    public func close() {
        writer.close()
    }
}
