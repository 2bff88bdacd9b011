import Foundation
import Glibc
import LifeSignalProtocol
import Testing

/// §2: responses come in request order, also when a request waits for another user to load and
/// the frames behind it are malformed or over the rate: those are answered in their place, not
/// ahead of it. What is held is bounded in bytes: past `4 × maxFrameBytes` the broker stops reading
/// the connection until the held frames have run.
@Suite("Held requests", .serialized)
struct HeldRequestOrderTests {
    let broker: BrokerProcess

    init() throws { broker = try BrokerProcess(arguments: ["--request-rate", "1", "--request-burst", "6"]) }

    @Test func aMalformedFrameBehindAHeldRequestIsAnsweredAfterIt() throws {
        let alice = try Person("Alice", port: broker.port)
        // Bob has no device online: adding him loads him first, and Alice's frames wait.
        let bob = try Person("Bob", port: broker.port, devices: 0)
        let phone = alice.phone
        // One write, so that the broker reads all three while the add is still being prepared.
        let add: JSONObject = ["op": "contacts.add", "rid": 1, "qrCode": .string(bob.qrCode), "isResponder": true,
                               "isDependent": false]
        phone.sendBytes(FrameEncoder.frame(.object(add)) + [0, 0, 0, 2, 0x5b, 0x5d]  // "[]": bad_json, no rid
            + FrameEncoder.frame(["op": "keepalive", "rid": 2]))
        let answers = phone.responses(3)
        #expect(answers.count == 3)
        #expect(answers.first?.rid == 1 && answers.first?.okFields != nil)
        #expect(answers.dropFirst().first?.errorCode == .badJSON)
        #expect(answers.last?.rid == 2 && answers.last?.okFields != nil)
    }

    @Test func aRequestOverTheRateBehindAHeldRequestIsAnsweredAfterIt() throws {
        let alice = try Person("Alice", port: broker.port)
        let bob = try Person("Bob", port: broker.port, devices: 0)
        let phone = alice.phone
        // Register and hello took two of the six; the add and three keepalives take the rest.
        var requests: [(op: String, fields: JSONObject)] = [
            (Op.contactsAdd, ["qrCode": .string(bob.qrCode), "isResponder": true, "isDependent": false]),
        ]
        requests += Array(repeating: (op: Op.keepalive, fields: JSONObject()), count: 5)
        let rids = phone.sendPipelined(requests)
        let answers = phone.responses(rids.count)
        #expect(answers.map(\.rid) == rids.map { Optional($0) })
        #expect(answers.first?.okFields != nil)
        #expect(answers.last?.errorCode == .rateLimited)
    }

    /// Issue 12: a device that pipelines far more than `4 × maxFrameBytes` behind a held request
    /// waits in TCP's flow control, not in the broker's memory, and once the held request has run
    /// every frame is read and answered, in order. The add is held for as long as the store is
    /// locked: this process takes SQLite's WAL write lock, as another writer would, for 3 s (the
    /// broker's busy timeout is 5 s), while 16 MB of valid requests are pipelined behind the add.
    @Test func framesHeldBehindARequestAreBoundedInBytesThenAllAnsweredInOrder() throws {
        let maxFrameBytes = 2_048
        let broker = try BrokerProcess(arguments: ["--max-frame-bytes", "\(maxFrameBytes)", "--request-rate", "0"])
        let alice = try Person("Alice", port: broker.port)
        let bob = try Person("Bob", port: broker.port, devices: 0)
        let residentBefore = try #require(broker.residentKiB)

        // The add, then 8,192 keepalives of about 1,950 bytes each (unknown fields are ignored, §2).
        let padding = JSONValue.string(String(repeating: "x", count: 1_900))
        let rids = Array(Int64(1_000)...Int64(1_000 + 8_192))
        var bytes = FrameEncoder.frame(["op": "contacts.add", "rid": .int(rids[0]), "qrCode": .string(bob.qrCode),
                                        "isResponder": true, "isDependent": false])
        for rid in rids.dropFirst() {
            bytes += FrameEncoder.frame(["op": "keepalive", "rid": .int(rid), "padding": padding])
        }
        let sentKiB = bytes.count / 1_024
        #expect(bytes.count / rids.count < maxFrameBytes)  // every frame is accepted
        #expect(bytes.count > 1_000 * 4 * maxFrameBytes)  // a thousand times the bound

        let lock = try StoreWriteLock(dataDirectory: broker.dataDirectory.path)
        // Sent from another thread: with the bound in force the send blocks until the store is free.
        let sender = PipelinedSender(connection: alice.phone, bytes: bytes)
        sender.start()
        // Nothing is answered while the add waits for the store: the add and all behind it are held.
        let answeredWhileLocked = alice.phone.next(timeout: .seconds(3))
        let residentWhileHeld = try #require(broker.residentKiB)
        lock.release()
        #expect(answeredWhileLocked == nil, "answered while the store was locked, so nothing was held")

        #expect(sender.finished(within: .seconds(120)), "the broker did not read the whole pipeline")
        let answers = alice.phone.responses(rids.count, timeout: .seconds(30))
        #expect(answers.count == rids.count)
        let answeredRids = answers.map(\.rid)
        let firstOutOfOrder = answeredRids.indices.first { answeredRids[$0] != rids[$0] }
        #expect(firstOutOfOrder == nil, "answer \(firstOutOfOrder ?? -1) out of order")
        #expect(answers.first?.okFields?["contact"] != nil)
        let refused = answers.filter { $0.okFields == nil }
        #expect(refused.isEmpty, "\(refused.count) refused, the first: \(String(describing: refused.first))")

        // Holding the pipeline would have cost the broker at least its size; bounded, it costs a
        // few frames and one read. Under a sanitizer RSS says nothing (SlowReaderTests): the plain
        // run of the suite checks it.
        let growthKiB = residentWhileHeld - residentBefore
        print("held requests: \(sentKiB) KiB pipelined behind a held add, broker RSS grew \(growthKiB) KiB")
        let environment = ProcessInfo.processInfo.environment
        if environment["ASAN_OPTIONS"] == nil && environment["TSAN_OPTIONS"] == nil {
            #expect(growthKiB < sentKiB / 4, "RSS grew by \(growthKiB) KiB while \(sentKiB) KiB were pipelined")
        }
    }
}

/// SQLite's WAL write lock on the broker's store, held from this process: byte 120 of the
/// `-shm` file (WAL_WRITE_LOCK, sqlite.org/walformat.html §2.3.1), a POSIX lock as SQLite takes
/// it. While it is held every store write and query of the broker waits, up to its busy timeout.
private final class StoreWriteLock {
    private var fd: Int32

    init(dataDirectory: String) throws {
        fd = open(dataDirectory + "/lifesignal.sqlite-shm", O_RDWR)
        guard fd >= 0 else { throw LockFailed(errno: errno) }
        var lock = flock()
        lock.l_type = Int16(F_WRLCK)
        lock.l_whence = Int16(SEEK_SET)
        lock.l_start = 120
        lock.l_len = 1
        // Waits out a commit of the broker's that holds it now.
        guard fcntl(fd, F_SETLKW, &lock) == 0 else {
            let error = errno
            close(fd)
            throw LockFailed(errno: error)
        }
    }

    /// Closing the descriptor drops the lock.
    func release() {
        guard fd >= 0 else { return }
        close(fd)
        fd = -1
    }

    deinit { release() }

    struct LockFailed: Error { let errno: Int32 }
}

/// Writes `bytes` to a raw connection on a thread of its own, so the test can watch the broker
/// while the write is blocked by TCP's flow control. Only the socket is shared: the sending thread
/// touches nothing of the connection but its descriptor, the test thread only reads.
private final class PipelinedSender: @unchecked Sendable {
    private let connection: RawConnection
    private let bytes: [UInt8]
    private let done = DispatchSemaphore(value: 0)

    init(connection: RawConnection, bytes: [UInt8]) {
        self.connection = connection
        self.bytes = bytes
    }

    func start() {
        Thread { [self] in
            connection.sendBytes(bytes)
            done.signal()
        }.start()
    }

    func finished(within timeout: Duration) -> Bool {
        let seconds = Double(timeout.components.seconds)
        return done.wait(timeout: .now() + seconds) == .success
    }
}
