import Foundation
import GRDB
import GRDBSQLite
import Synchronization

/// Copies the WAL back into the database file on its own thread and connection. SQLite's
/// auto-checkpoint runs inside the commit that crosses its threshold, on the writer's thread,
/// and every request in the group commits behind it waits for the copy.
///
/// PASSIVE checkpoints run while commits go on. A WAL only starts over from its beginning
/// when a write begins with every frame already copied, which never happens while commits
/// keep coming, so once a commit leaves `restartFrames` frames in the WAL the writer pauses
/// before its next batch while one more pass copies the rest (only what came since the last
/// pass); its next commit then writes from the start of the file. The WAL so stays within
/// `restartFrames` plus one batch, unless a reader in another process (`lsbroker pushes`)
/// holds an old snapshot: SQLite cannot start over under a reader, so it grows until the next
/// pause finds none.
final class WALCheckpointer: Sendable {
    struct Limits: Sendable {
        /// WAL frames (pages) after a commit that make the writer pause for a restart.
        var restartFrames = 16_384
        /// Pause between passes while commits come, so that each copies (and syncs) many pages.
        var passIntervalMilliseconds = 10
    }

    /// What the checkpointer has done, for tests and logs.
    struct Counts: Sendable, Equatable {
        var passes = 0
        var restarts = 0
    }

    private struct State: ~Copyable {
        /// Frames in the WAL after the last commit (SQLite's WAL hook).
        var walFrames = 0
        /// Commits since the last pass.
        var dirty = false
        var writerWaiting = false
        var closing = false
        var counts = Counts()
    }

    let limits: Limits
    private let connection: DatabaseQueue
    private let state = Mutex(State())
    private let wakeup = DispatchSemaphore(value: 0)
    private let resume = DispatchSemaphore(value: 0)
    private let finished = DispatchSemaphore(value: 0)

    init(path: String, limits: Limits) throws {
        self.limits = limits
        var configuration = Configuration()
        configuration.label = "lifesignal.store.checkpointer"
        // A pass must sync the database file before the WAL may start over on top of what it copied.
        configuration.prepareDatabase { db in try db.execute(sql: "PRAGMA synchronous = FULL") }
        connection = try DatabaseQueue(path: path, configuration: configuration)
        Self.startThread(self)
    }

    var counts: Counts { state.withLock { $0.counts } }

    /// Takes over checkpoints of the writer's connection: turns SQLite's own off and learns
    /// the WAL's size after each commit. Call on the writer's connection.
    func attach(to db: Database) throws {
        try db.execute(sql: "PRAGMA wal_autocheckpoint = 0")
        sqlite3_wal_hook(db.sqliteConnection, { context, _, _, frames in
            Unmanaged<WALCheckpointer>.fromOpaque(context!).takeUnretainedValue().committed(walFrames: Int(frames))
            return SQLITE_OK
        }, Unmanaged.passUnretained(self).toOpaque())
    }

    /// Runs on the writer's thread, inside each commit.
    private func committed(walFrames: Int) {
        state.withLock { state in
            state.walFrames = walFrames
            state.dirty = true
        }
    }

    /// Called by the writer before each batch: if the WAL has reached `restartFrames`, waits
    /// while the checkpointer copies what is left, so that the batch starts the WAL over.
    func pauseIfFull() {
        let full = state.withLock { state in
            guard state.walFrames >= limits.restartFrames, !state.closing else { return false }
            state.writerWaiting = true
            return true
        }
        guard full else { return }
        wakeup.signal()
        resume.wait()
    }

    /// Stops the thread after a last pass. The writer must have stopped first.
    func close() {
        state.withLock { $0.closing = true }
        wakeup.signal()
        finished.wait()
    }

    // A nonisolated static so the thread's closure is not main-actor isolated (DESIGN §2).
    private static func startThread(_ checkpointer: WALCheckpointer) {
        let thread = Thread { checkpointer.runLoop() }
        thread.name = "lifesignal.store.checkpointer"
        thread.start()
    }

    private func runLoop() {
        while true {
            let idle = state.withLock { !$0.dirty && !$0.writerWaiting }
            // While commits come, a pass every interval; when idle, a wait the writer ends by pausing.
            _ = wakeup.wait(timeout: .now() + .milliseconds(idle ? 1_000 : limits.passIntervalMilliseconds))
            let (closing, writerWaiting, dirty) = state.withLock { state in
                let dirty = state.dirty
                state.dirty = false
                return (state.closing, state.writerWaiting, dirty)
            }
            if dirty || writerWaiting || closing { pass(restart: writerWaiting) }
            if writerWaiting {
                state.withLock { state in
                    state.writerWaiting = false
                    state.walFrames = 0
                }
                resume.signal()
            }
            if closing { break }
        }
        finished.signal()
    }

    private func pass(restart: Bool) {
        // A failed pass (the database busy or an I/O error) leaves the WAL as it was: the next one retries.
        _ = try? connection.inDatabase { db in try db.checkpoint(.passive) }
        state.withLock { state in
            state.counts.passes += 1
            if restart { state.counts.restarts += 1 }
        }
    }
}
