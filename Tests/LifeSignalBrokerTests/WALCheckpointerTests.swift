import Foundation
import GRDB
@testable import LifeSignalBroker
import LifeSignalProtocol
import Testing

@Suite final class WALCheckpointerTests {
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent("wal-\(UUID().uuidString)").path

    deinit { try? FileManager.default.removeItem(atPath: directory) }

    private func write(_ store: SQLiteStore, _ changes: [StoreChange]) async throws {
        _ = try await withCheckedContinuation { continuation in
            store.submit(StoreWrite(changes: changes)) { continuation.resume(returning: $0) }
        }.get()
    }

    private var walBytes: Int64 {
        let attributes = try? FileManager.default.attributesOfItem(atPath: SQLiteStore.path(in: directory) + "-wal")
        return (attributes?[.size] as? NSNumber)?.int64Value ?? 0
    }

    private func user() -> User {
        User(id: Credentials.newUserID(), name: "Alice", phone: nil, qrCode: Credentials.newQRCode(),
             checkInIntervalSec: 86_400, lastCheckInAt: nil, checkInDeadline: nil, isNonResponsive: false,
             alert: nil, preferences: Preferences(push: true, mutedTypes: []), createdAt: 0)
    }

    @Test func theWALStartsOverBeforeItPassesItsLimitByMoreThanABatch() async throws {
        let limit = 128
        let limits = WALCheckpointer.Limits(restartFrames: 64, pauseFrames: 16, maxFrames: limit)
        let store = try SQLiteStore(directory: directory, checkpoints: limits) { $0() }
        let alice = user()
        try await write(store, [.createUser(alice, tokenHash: [0])])
        // Each write is its own batch of four events of 3 KiB: a handful of pages.
        let body = [UInt8](repeating: UInt8(ascii: "x"), count: 3_000)
        var seq: Int64 = 0
        var largest: Int64 = 0
        for _ in 0..<200 {
            var changes: [StoreChange] = []
            for _ in 0..<4 {
                seq += 1
                changes.append(.appendEvent(userID: alice.id, seq: seq, body: body[...]))
            }
            try await write(store, changes)
            largest = max(largest, walBytes)
        }
        // 200 writes of 12 KiB of events each are thousands of frames: without restarts the WAL would hold them all.
        let frameBytes: Int64 = 4_096 + 24
        let batchFrames: Int64 = 32
        #expect(largest <= 32 + (Int64(limit) + batchFrames) * frameBytes)
        #expect(store.checkpointer.counts.restarts >= 5)
        store.close()

        // What was written is all there after reopening.
        let reopened = try SQLiteStore(directory: directory) { $0() }
        let answer = try await withCheckedContinuation { continuation in
            let query = StoreQuery.events(userID: alice.id, afterSeq: 0, throughSeq: seq, maxBytes: .max)
            reopened.submit(StoreWrite(changes: [], query: query)) {
                continuation.resume(returning: $0)
            }
        }.get().queryResult
        guard case .events(let bodies?) = answer else { Issue.record("no events"); return }
        #expect(bodies.count == Int(seq))
        reopened.close()
    }

    @Test func closingCopiesEverythingIntoTheDatabaseFile() async throws {
        let store = try SQLiteStore(directory: directory) { $0() }
        let alice = user()
        try await write(store, [.createUser(alice, tokenHash: [0])])
        store.close()
        #expect(store.checkpointer.counts.passes >= 1)
        let check = try DatabaseQueue(path: SQLiteStore.path(in: directory))
        let (walFrames, copied) = try check.inDatabase { try $0.checkpoint(.passive) }
        #expect(walFrames == copied)
    }
}
