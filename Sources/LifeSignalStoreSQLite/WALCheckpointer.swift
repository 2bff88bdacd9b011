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
/// writes from the start of the file (and cuts the file down to `journalSizeLimitBytes`). If
/// the WAL reaches `maxFrames` first, the writer pauses anyway, so the WAL stays within
/// `maxFrames` plus one batch, unless a reader in another process (`lsbroker pushes`) holds an
/// old snapshot: SQLite cannot start over under a reader, so the WAL then grows until a pause
/// finds none.
///
/// A WAL that no commit has touched for `idleMs` is copied back and truncated to nothing (a
/// TRUNCATE checkpoint, which never waits: a writer or reader in the way puts it off by another
/// `idleMs`), so a quiet broker gives back the disk its WAL held (docs/OPERATIONS.md, "Disk headroom").
package final class WALCheckpointer: Sendable {
    package struct Limits: Sendable {
        /// WAL frames (pages) after a commit that start the passes towards a restart. The
        /// larger the WAL, the more versions of a hot page one pass copies once, but the more
        /// disk it holds: 4,096 frames is 16 MiB (docs/BENCHMARKS.md, "WAL checkpoints by size
        /// and time", for what smaller thresholds cost per ping).
        package var restartFrames: Int
        /// Frames left to copy that are worth pausing the writer for.
        package var pauseFrames: Int
        /// WAL frames after which the writer waits for the restart whatever is left to copy
        /// (8,192 frames: 32 MiB, the most the WAL holds beside one batch).
        package var maxFrames: Int
        /// A WAL with frames that no commit touched for this long is checkpointed and truncated.
        package var idleMs: Int

        package init(restartFrames: Int = 4_096, pauseFrames: Int = 256, maxFrames: Int = 8_192, idleMs: Int = 5_000) {
            self.restartFrames = restartFrames
            self.pauseFrames = pauseFrames
            self.maxFrames = maxFrames
            self.idleMs = idleMs
        }

        /// What the writer's connection cuts the WAL file down to when it starts over
        /// (`PRAGMA journal_size_limit`): the WAL a restart is due at.
        package var journalSizeLimitBytes: Int { restartFrames * (4_096 + 24) + 32 }
    }

    /// What the checkpointer has done, for tests and logs.
    package struct Counts: Sendable, Equatable {
        package var passes = 0
        package var restarts = 0
        /// Idle WALs truncated to nothing.
        package var truncations = 0
    }

    private struct State: ~Copyable {
        /// Frames in the WAL after the last commit (SQLite's WAL hook).
        package var walFrames = 0
        /// Frames copied by the last pass.
        package var copiedFrames = 0
        /// The writer should pause before its next batch for the last pass.
        package var wantsPause = false
        package var writerWaiting = false
        /// Waiting for a commit to cross `restartFrames`, or for the writer to pause.
        package var idle = false
        /// After a restart that a reader prevented: where the next one is due.
        package var restartAt: Int
        package var maxAt: Int
        package var closing = false
        /// When a commit last touched the WAL, or an idle truncation was last tried
        /// (`MonotonicClock`): the next one is due `idleMs` after the later.
        package var lastActivityNs: UInt64 = 0
        /// Waiting with an empty WAL, with no idle truncation to time.
        package var waitsForCommit = false
        package var counts = Counts()
    }

    package let limits: Limits
    private let connection: DatabaseQueue
    private let state: Locked<State>
    private let wakeup = DispatchSemaphore(value: 0)
    private let resume = DispatchSemaphore(value: 0)
    private let finished = DispatchSemaphore(value: 0)

    package init(path: String, limits: Limits) throws {
        self.limits = limits
        state = Locked(State(restartAt: limits.restartFrames, maxAt: limits.maxFrames))
        var configuration = Configuration()
        configuration.label = "lifesignal.store.checkpointer"
        // A pass must sync the database file before the WAL may start over on top of what it copied.
        configuration.prepareDatabase { db in try db.execute(sql: "PRAGMA synchronous = FULL") }
        connection = try DatabaseQueue(path: path, configuration: configuration)
        StoreThread.start(named: "lifesignal.store.checkpointer") { [self] in runLoop() }
    }

    package var counts: Counts { state.withLock { $0.counts } }

    /// Takes over checkpoints of the writer's connection: turns SQLite's own off and learns
    /// the WAL's size after each commit. Call on the writer's connection.
    package func attach(to db: Database) throws {
        try db.execute(sql: "PRAGMA wal_autocheckpoint = 0")
        sqlite3_wal_hook(db.sqliteConnection, { context, _, _, frames in
            Unmanaged<WALCheckpointer>.fromOpaque(context!).takeUnretainedValue().committed(walFrames: Int(frames))
            return SQLITE_OK
        }, Unmanaged.passUnretained(self).toOpaque())
    }

    /// Runs on the writer's thread, inside each commit: wakes the checkpointer once the WAL is due.
    private func committed(walFrames: Int) {
        let nowNs = MonotonicClock.nowNs()
        let wake = state.withLock { state in
            state.walFrames = walFrames
            state.lastActivityNs = nowNs
            if state.idle, walFrames >= state.restartAt, !state.wantsPause {
                state.idle = false
                return true
            }
            // The first commit into an empty WAL starts the idle clock.
            guard state.waitsForCommit else { return false }
            state.waitsForCommit = false
            return true
        }
        if wake { wakeup.signal() }
    }

    /// Called by the writer before each batch: when the last pass is due (or the WAL is at
    /// `maxFrames`), waits while the checkpointer copies what is left, so that the batch
    /// starts the WAL over.
    package func pauseIfDue() {
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
    package func close() {
        state.withLock { $0.closing = true }
        wakeup.signal()
        finished.wait()
    }

    private enum Step {
        case wait(timeoutNs: UInt64?), catchUp, restart, truncate, close
    }

    private func runLoop() {
        while true {
            let step = state.withLock { state -> Step in
                if state.writerWaiting { return .restart }
                if state.closing { return .close }
                if state.walFrames >= state.restartAt && !state.wantsPause { return .catchUp }
                state.idle = true
                state.waitsForCommit = state.walFrames == 0
                guard state.walFrames > 0 else { return .wait(timeoutNs: nil) }
                let dueNs = state.lastActivityNs + UInt64(limits.idleMs) * 1_000_000
                let nowNs = MonotonicClock.nowNs()
                return nowNs >= dueNs ? .truncate : .wait(timeoutNs: dueNs - nowNs)
            }
            switch step {
            case .wait(let timeoutNs?):
                _ = wakeup.wait(timeout: .now() + .nanoseconds(Int(min(timeoutNs, UInt64(Int.max)))))
            case .wait(nil):
                wakeup.wait()
            case .truncate:
                truncate()
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

    /// An idle WAL copied back and cut to nothing. Never waits for the writer (no busy handler):
    /// if a commit or a reader is in the way, it is tried again after another `idleMs`.
    private func truncate() {
        let truncated = (try? connection.inDatabase { db in try db.checkpoint(.truncate) }) != nil
        let nowNs = MonotonicClock.nowNs()
        state.withLock { state in
            state.counts.passes += 1
            state.lastActivityNs = nowNs
            guard truncated else { return }
            // Every frame is in the database file and the WAL is empty: the writer's next
            // commit starts it over.
            state.counts.truncations += 1
            state.walFrames = 0
            state.copiedFrames = 0
            state.wantsPause = false
            state.restartAt = limits.restartFrames
            state.maxAt = limits.maxFrames
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
