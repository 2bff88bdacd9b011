import Foundation
import LifeSignalEngine
import LifeSignalProtocol
import LifeSignalRules
import LifeSignalStoreSQLite
import LifeSignalUV

/// The store alone under the writes `ping.send` makes (both sides of the relationship, three events, one
/// notification, retention pruning), for `lsbroker bench-store`: CPU and bytes written per
/// ping with no network and no load generator, so that store changes can be compared on a
/// busy machine. Pings are submitted in waves of `batch` (one group commit each, about).
public enum StoreBenchmark {
    public struct Result: Sendable {
        public var pings: Int
        public var seconds: Double
        public var cpuMicrosecondsPerPing: Double
        public var bytesWrittenPerPing: Double
        public var writeCallsPerPing: Double
        public var databaseBytes: Int64
        public var walBytes: Int64
        /// Checkpoint passes and WAL restarts during the measured pings.
        public var checkpointPasses: Int
        public var walRestarts: Int
    }

    public static func run(directory: String, pairs: Int, pings: Int, batch: Int, retention: Int = 1_000) throws
        -> Result
    {
        let store = try SQLiteStore(directory: directory) { work in work() }
        defer { store.close() }
        var workload = Workload(pairs: pairs, retention: retention)
        try submitAndWait(store, [workload.setUp()])
        // Warm-up: a tenth of the pings, so the tables hold a steady working set.
        try submitAndWait(store, (0..<max(pings / 10, 1)).map { _ in workload.nextPing() })

        let before = Usage.now()
        let countsBefore = store.checkpointer.counts
        var sent = 0
        while sent < pings {
            let count = min(batch, pings - sent)
            try submitAndWait(store, (0..<count).map { _ in workload.nextPing() })
            sent += count
        }
        let after = Usage.now()
        let countsAfter = store.checkpointer.counts
        let size = { (suffix: String) in
            ((try? FileManager.default.attributesOfItem(atPath: SQLiteStore.path(in: directory) + suffix))?[.size]
                as? NSNumber)?.int64Value ?? 0
        }
        return Result(
            pings: pings, seconds: after.wall - before.wall,
            cpuMicrosecondsPerPing: (after.cpu - before.cpu) * 1e6 / Double(pings),
            bytesWrittenPerPing: Double(after.bytesWritten - before.bytesWritten) / Double(pings),
            writeCallsPerPing: Double(after.writeCalls - before.writeCalls) / Double(pings),
            databaseBytes: size(""), walBytes: size("-wal"),
            checkpointPasses: countsAfter.passes - countsBefore.passes,
            walRestarts: countsAfter.restarts - countsBefore.restarts)
    }

    struct Failed: Error {}

    private static func submitAndWait(_ store: SQLiteStore, _ writes: [StoreWrite]) throws {
        let remaining = Locked(writes.count)
        let failed = Locked(false)
        let done = DispatchSemaphore(value: 0)
        for write in writes {
            store.submit(write) { result in
                if case .failure = result { failed.withLock { $0 = true } }
                if remaining.withLock({ $0 -= 1; return $0 }) == 0 { done.signal() }
            }
        }
        done.wait()
        if failed.withLock({ $0 }) { throw Failed() }
    }

    /// Users in responder → dependent pairs, pinged round-robin as `lsclient load pings` does.
    private struct Workload {
        let retention: Int
        var users: [(id: String, log: EventLogHead)]
        var contacts: [ContactRecord]
        var next = 0
        let now = WallClock.nowMs()

        init(pairs: Int, retention: Int) {
            self.retention = retention
            let ids = (0..<(2 * pairs)).map { _ in Credentials.newUserID() }
            users = ids.map { ($0, EventLogHead(lastSeq: 0, oldestRetained: 1)) }
            // contacts[i] is user i's side; users 2k (responder) and 2k + 1 (dependent) are a pair.
            contacts = ids.indices.map { index in
                ContactRecord(userID: ids[index], contactID: ids[index ^ 1], isResponder: index % 2 == 1,
                              isDependent: index % 2 == 0, addedAt: 0)
            }
        }

        func setUp() -> StoreWrite {
            StoreWrite(changes: users.enumerated().map { index, user in
                .createUser(User(id: user.id, name: "load-\(index)", phone: nil, qrCode: Credentials.newQRCode(),
                                 checkInIntervalSec: 86_400, lastCheckInAt: nil, checkInDeadline: nil,
                                 isNonResponsive: false, alert: nil,
                                 preferences: Preferences(push: true, mutedTypes: []),
                                 createdAt: now), tokenHash: Array(repeating: 0, count: 32))
            } + contacts.map { .upsertContact($0) })
        }

        mutating func nextPing() -> StoreWrite {
            let pair = next % (users.count / 2)
            next += 1
            let (responder, dependent) = (2 * pair, 2 * pair + 1)
            let ping = PendingPing(id: Credentials.newID(prefix: "p"), sentAt: now + Int64(next))
            var changes: [StoreChange] = []
            contacts[responder].outgoingPing = ping
            contacts[dependent].incomingPing = ping
            changes.append(.upsertContact(contacts[responder]))
            event(of: responder, body: Self.contactUpdated, into: &changes)
            changes.append(.upsertContact(contacts[dependent]))
            event(of: dependent, body: Self.contactUpdated, into: &changes)
            let notification = Notification(
                id: Credentials.newID(prefix: "n"), type: .ping, title: "Ping",
                message: "load-\(responder) pinged you.",
                timestamp: ping.sentAt, isRead: false, relatedContactID: users[responder].id, relatedPingID: ping.id,
                contactData: ContactData(id: users[responder].id, name: "load-\(responder)", role: .responder,
                                         action: .ping))
            changes.append(.insertNotification(userID: users[dependent].id, notification))
            event(of: dependent, body: Self.notificationAdded, into: &changes)
            return StoreWrite(changes: changes)
        }

        /// JSON text the size of the real events (contact.updated, notification.added), made once:
        /// the store does not look inside.
        static let contactUpdated = body(length: 349)
        static let notificationAdded = body(length: 428)

        private static func body(length: Int) -> [UInt8] {
            var body = Array("{\"op\":\"event\",\"seq\":1,\"event\":\"x\",\"data\":{\"".utf8)
            while body.count < length - 3 { body.append(UInt8(ascii: "a") + UInt8(body.count % 26)) }
            return body + Array("\"}}".utf8)
        }

        /// Appends an event with the engine's retention pruning.
        private mutating func event(of user: Int, body: [UInt8], into changes: inout [StoreChange]) {
            users[user].log.append(body: body[...], of: users[user].id, retention: retention, to: &changes)
        }
    }

    /// This process's CPU time and write system calls (`/proc/self/io`), and the wall clock.
    private struct Usage {
        var wall: Double
        var cpu: Double
        var bytesWritten: Int64
        var writeCalls: Int64

        static func now() -> Usage {
            var time = timespec()
            clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &time)
            let cpu = Double(time.tv_sec) + Double(time.tv_nsec) / 1e9
            var io: [String: Int64] = [:]
            if let text = try? String(contentsOfFile: "/proc/self/io", encoding: .utf8) {
                for line in text.split(separator: "\n") {
                    let parts = line.split(separator: ":")
                    if parts.count == 2 { io[String(parts[0])] = Int64(parts[1].trimmingCharacters(in: .whitespaces)) }
                }
            }
            return Usage(wall: Double(DispatchTime.now().uptimeNanoseconds) / 1e9, cpu: cpu,
                         bytesWritten: io["wchar"] ?? 0, writeCalls: io["syscw"] ?? 0)
        }
    }
}
