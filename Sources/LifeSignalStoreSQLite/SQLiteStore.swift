import Foundation
import GRDB
import LifeSignalUV

/// The embedded default store: SQLite through GRDB in WAL mode, `synchronous = FULL`
/// so that a committed transaction survives a crash or power loss.
public final class SQLiteStore: BrokerStore {
    package let pool: DatabasePool
    package let checkpointer: WALCheckpointer
    private let writer: GroupCommitWriter
    private let lock: DataDirectoryLock
    /// The schema's migrations applied, in order (the last names the version), for the log.
    public let appliedMigrations: [String]

    /// Group commits write large batches; with a cache of a few MiB they spill dirty pages into
    /// the WAL mid-transaction and read them back (docs/BENCHMARKS.md).
    public static let defaultCacheMiB = 64

    /// Opens (creating if needed) `directory/lifesignal.sqlite` and runs pending migrations.
    /// Throws `DataDirectoryInUse` while another store (another broker) has `directory` open.
    /// `cacheMiB` bounds each connection's page cache: the writer's holds the pages it wrote, so
    /// it grows with the store's hot data up to that bound.
    public convenience init(
        directory: String, cacheMiB: Int = defaultCacheMiB, scheduler: @escaping CompletionScheduler
    ) throws {
        try self.init(directory: directory, cacheMiB: cacheMiB, checkpoints: WALCheckpointer.Limits(), scheduler: scheduler)
    }

    package init(
        directory: String, cacheMiB: Int = defaultCacheMiB, checkpoints: WALCheckpointer.Limits,
        scheduler: @escaping CompletionScheduler
    ) throws {
        try PrivateStoreFiles.makeDirectory(directory)
        let lock = try DataDirectoryLock(directory: directory)
        var opened = false
        defer { if !opened { lock.release() } }
        try PrivateStoreFiles.prepare(databasePath: Self.path(in: directory))
        var configuration = Configuration()
        configuration.prepareDatabase { db in
            try db.execute(sql: "PRAGMA synchronous = FULL")
            try db.execute(sql: "PRAGMA cache_size = \(-1024 * cacheMiB)")
            // Checkpoints run on their own thread (WALCheckpointer), never inside a commit.
            try db.execute(sql: "PRAGMA wal_autocheckpoint = 0")
            // A WAL that starts over is cut back to this on disk: without it the file stays as
            // large as it ever grew, and a disk that filled once stays full.
            try db.execute(sql: "PRAGMA journal_size_limit = \(checkpoints.journalSizeLimitBytes)")
            // What a statement or savepoint may roll back (savepoints only when a batch is retried
            // one write at a time) goes to a statement journal, by default a temporary file.
            try db.execute(sql: "PRAGMA temp_store = MEMORY")
        }
        configuration.busyMode = .timeout(5)
        // The schema's REFERENCES stay as documentation; checking them cost about a twelfth of
        // the store's CPU per ping. Every row is written for a user the broker has loaded, so no
        // check could fail; a deleted account's rows are deleted table by table (`.eraseUser`).
        configuration.foreignKeysEnabled = false
        let path = Self.path(in: directory)
        pool = try DatabasePool(path: path, configuration: configuration)
        let migrator = SQLiteSchema.migrator
        try migrator.migrate(pool)
        let applied = try pool.read { db in try migrator.appliedIdentifiers(db) }
        appliedMigrations = migrator.migrations.filter(applied.contains)
        let checkpointer = try WALCheckpointer(path: path, limits: checkpoints)
        do {
            try pool.writeWithoutTransaction { db in try checkpointer.attach(to: db) }
        } catch {
            checkpointer.close()
            throw error
        }
        self.checkpointer = checkpointer
        writer = GroupCommitWriter(pool: pool, checkpointer: checkpointer, scheduler: scheduler)
        self.lock = lock
        opened = true
    }

    /// The database file of the store in `directory`; readers such as `PushLog` open it too.
    package static func path(in directory: String) -> String {
        (directory as NSString).appendingPathComponent("lifesignal.sqlite")
    }

    public func submit(_ write: StoreWrite, completion: @escaping @Sendable (Result<StoreWriteResult, Error>) -> Void) {
        writer.submit(write, completion: completion)
    }

    /// For tests: every batch that would write fails as on a full disk while this is true.
    package var simulatedFullDisk: Locked<Bool> { writer.simulatedFullDisk }

    /// For tests: submits the writes so that they are committed in one batch.
    package func submitTogether(_ writes: [(StoreWrite, @Sendable (Result<StoreWriteResult, Error>) -> Void)]) {
        writer.submitTogether(writes)
    }

    public func close() {
        writer.close()
        checkpointer.close()
        lock.release()
    }
}
