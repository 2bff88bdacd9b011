import Foundation
import GRDB
import GRDBSQLite
import LifeSignalUV

/// Copies the WAL back into the database file on its own thread and connection. SQLite's
/// auto-checkpoint runs inside the commit that crosses its threshold, on the writer's thread,
/// and every request in the group commits behind it waits for the copy.
///
/// A checkpoint copies the newest version of each page once, so the fewer, the less is
/// copied: passes only start once a commit leaves `restartFrames` frames in the WAL. A WAL
/// only starts over from its beginning when a write begins with every frame copied, which
/// never happens while commits keep coming: PASSIVE passes run while the writer goes on, each
/// copying what came during the one before, until what is left is under `pauseFrames`; then
/// the writer pauses before its next batch while a last pass copies that, and its next commit
/// writes from the start of the file. If the WAL reaches `maxFrames` first, the writer pauses
/// anyway, so the WAL stays within `maxFrames` plus one batch, unless a reader in another
/// process (`lsbroker pushes`) holds an old snapshot: SQLite cannot start over under a reader,
/// so the WAL then grows until a pause finds none.
final class WALCheckpointer: Sendable {
    struct Limits: Sendable {
        /// WAL frames (pages) after a commit that start the passes towards a restart. The
        /// larger the WAL, the more versions of a hot page one pass copies once: bench-store
        /// wrote 44-45 KB per ping at 16,384, 38-39 KB at 32,768 and 36-38 KB at 65,536.
        var restartFrames = 32_768
        /// Frames left to copy that are worth pausing the writer for.
        var pauseFrames = 1_024
        /// WAL frames after which the writer waits for the restart whatever is left to copy
        /// (65,536 frames: 256 MiB, the most the WAL holds beside one batch).
        var maxFrames = 65_536
    }

    /// What the checkpointer has done, for tests and logs.
    struct Counts: Sendable, Equatable {
        var passes = 0
        var restarts = 0
    }

    private struct State: ~Copyable {
        /// Frames in the WAL after the last commit (SQLite's WAL hook).
        var walFrames = 0
        /// Frames copied by the last pass.
        var copiedFrames = 0
        /// The writer should pause before its next batch for the last pass.
        var wantsPause = false
        var writerWaiting = false
        /// Waiting for a commit to cross `restartFrames`, or for the writer to pause.
        var idle = false
        /// After a restart that a reader prevented: where the next one is due.
        var restartAt: Int
        var maxAt: Int
        var closing = false
        var counts = Counts()
    }

    let limits: Limits
    private let connection: DatabaseQueue
    private let state: Locked<State>
    private let wakeup = DispatchSemaphore(value: 0)
    private let resume = DispatchSemaphore(value: 0)
    private let finished = DispatchSemaphore(value: 0)

    init(path: String, limits: Limits) throws {
        self.limits = limits
        state = Locked(State(restartAt: limits.restartFrames, maxAt: limits.maxFrames))
        var configuration = Configuration()
        configuration.label = "lifesignal.store.checkpointer"
        // A pass must sync the database file before the WAL may start over on top of what it copied.
        configuration.prepareDatabase { db in try db.execute(sql: "PRAGMA synchronous = FULL") }
        connection = try DatabaseQueue(path: path, configuration: configuration)
        StoreThread.start(named: "lifesignal.store.checkpointer") { [self] in runLoop() }
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

    /// Runs on the writer's thread, inside each commit: wakes the checkpointer once the WAL is due.
    private func committed(walFrames: Int) {
        let wake = state.withLock { state in
            state.walFrames = walFrames
            guard state.idle, walFrames >= state.restartAt, !state.wantsPause else { return false }
            state.idle = false
            return true
        }
        if wake { wakeup.signal() }
    }

    /// Called by the writer before each batch: when the last pass is due (or the WAL is at
    /// `maxFrames`), waits while the checkpointer copies what is left, so that the batch
    /// starts the WAL over.
    func pauseIfDue() {
        let due = state.withLock { state in
            guard state.wantsPause || state.walFrames >= state.maxAt, !state.closing else { return false }
            state.writerWaiting = true
            state.idle = false
            return true
        }
        guard due else { return }
        wakeup.signal()
        resume.wait()
    }

    /// Stops the thread after a last pass. The writer must have stopped first.
    func close() {
        state.withLock { $0.closing = true }
        wakeup.signal()
        finished.wait()
    }

    private enum Step {
        case wait, catchUp, restart, close
    }

    private func runLoop() {
        while true {
            let step = state.withLock { state -> Step in
                if state.writerWaiting { return .restart }
                if state.closing { return .close }
                if state.walFrames >= state.restartAt && !state.wantsPause { return .catchUp }
                state.idle = true
                return .wait
            }
            switch step {
            case .wait:
                wakeup.wait()
            case .catchUp:
                let copied = pass()
                state.withLock { state in
                    // Little left, or no progress (a reader, an error): the writer's pause settles it.
                    if state.walFrames - copied <= limits.pauseFrames || copied <= state.copiedFrames {
                        state.wantsPause = true
                    }
                    state.copiedFrames = copied
                }
            case .restart:
                let walFrames = state.withLock { $0.walFrames }
                let copied = pass()
                state.withLock { state in
                    state.writerWaiting = false
                    state.wantsPause = false
                    state.copiedFrames = 0
                    if copied >= walFrames {
                        // The writer's next commit starts the WAL over.
                        state.counts.restarts += 1
                        state.walFrames = 0
                        state.restartAt = limits.restartFrames
                        state.maxAt = limits.maxFrames
                    } else {
                        // A reader holds frames that cannot be copied yet: try again further on.
                        state.restartAt = walFrames + limits.restartFrames
                        state.maxAt = walFrames + limits.maxFrames
                    }
                }
                resume.signal()
            case .close:
                _ = pass()
                finished.signal()
                return
            }
        }
    }

    /// One PASSIVE checkpoint; the frames of the WAL now in the database file (0 if it failed:
    /// the WAL stays as it was and a later pass retries).
    private func pass() -> Int {
        let result = try? connection.inDatabase { db in try db.checkpoint(.passive) }
        state.withLock { $0.counts.passes += 1 }
        return result?.checkpointedFrameCount ?? 0
    }
}
