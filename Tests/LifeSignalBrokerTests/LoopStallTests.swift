import Foundation
@testable import LifeSignalBroker
import LifeSignalProtocol
import LifeSignalUV
import Testing

/// A broker whose loop was late (stalled, or starved of CPU beside other work) must not close a
/// connection for silence when what the device sent is waiting unread in the broker's own socket:
/// the hello timeout and the heartbeat judge a connection by what the loop could have heard.
///
/// Each test stalls the loop for longer than the limit while the device's request waits unread.
/// A run counts only if the stall began while the connection was still within its limit: a run
/// slowed down so much that it began later shows nothing, and the test tries again.
/// The time limit guards against a hang and is longer than a sanitized run, whose blocking
/// integration tests can hold the cooperative pool, and so these async tests, for minutes.
@Suite(.timeLimit(.minutes(20)))
struct LoopStallTests {
    static let attempts = 20

    @Test func aRequestSentWhileTheLoopWasStalledIsAnsweredNotTimedOutForWantOfHello() async throws {
        let broker = try InProcessBroker { $0.helloTimeoutMs = 1_000 }
        defer { broker.stop() }
        // A keepalive before hello is answered at once, and the connection stays open. A run in
        // which the broker had not accepted the connection yet when the stall began does not count.
        let answer = try await keepaliveAnswer(duringAStallOf: broker, withinMs: 1_000, of: \.state.openedAtMs) {
            try BlockingSocket(port: broker.port)
        }
        guard let (rid, answer) = answer else { return }
        #expect(answer == .error(rid: rid, ProtocolError(.unauthenticated, "say hello first")))
    }

    @Test func aKeepaliveSentWhileTheLoopWasStalledKeepsTheDeviceConnected() async throws {
        let broker = try InProcessBroker { $0.heartbeatMs = 500 }
        defer { broker.stop() }
        let registration = try BlockingSocket(port: broker.port)
        guard case .ok(_, let registered) = try #require(registration.answer(to: registration.send(Op.register, ["name": "Alice"]))),
              let user = registered["user"]?.objectValue?["id"]?.stringValue,
              let token = registered["token"]?.stringValue else {
            Issue.record("register failed")
            return
        }
        registration.hangUp()
        #expect(await poll { (try? await broker.broker.onLoopAsync { $0.connectionCount() }) == 0 })
        // The silence limit is 2 × heartbeat.
        let answer = try await keepaliveAnswer(duringAStallOf: broker, withinMs: 1_000, of: \.state.lastHeardMs) {
            let device = try BlockingSocket(port: broker.port)
            let hello = device.send(Op.hello, ["version": 1, "user": .string(user), "token": .string(token), "device": "phone"])
            let answer = try #require(device.answer(to: hello))
            guard case .ok = answer else { throw ProtocolError(.internal, "hello answered \(answer)") }
            return device
        }
        guard let (_, answer) = answer else { return }
        guard case .ok = try #require(answer, "the device was closed") else {
            Issue.record("the keepalive was answered \(String(describing: answer))")
            return
        }
    }

    @Test func aConnectionThatStaysSilentIsStillClosedAtItsHelloTimeout() async throws {
        let broker = try InProcessBroker { $0.helloTimeoutMs = 100 }
        defer { broker.stop() }
        let device = try BlockingSocket(port: broker.port)
        let answer = try #require(device.receive())
        #expect(answer == .error(rid: nil, ProtocolError(.unauthenticated, "no hello within 100 ms")))
    }

    /// Sends a keepalive on a device that `connect` opens, while the broker's loop is stalled for
    /// longer than the limit; returns its rid and answer (nil: no run counted, recorded as an issue).
    /// A run counts if the stall began while the connection was within `limitMs` of its `mark`
    /// (when it was opened, or last heard from); a device whose run did not is hung up and
    /// another one tried.
    private func keepaliveAnswer(
        duringAStallOf broker: InProcessBroker, withinMs limitMs: UInt64,
        of mark: KeyPath<ClientConnection, UInt64> & Sendable, connect: () async throws -> BlockingSocket
    ) async throws -> (rid: Int64, answer: ServerMessage?)? {
        for _ in 0..<Self.attempts {
            let device = try await connect()
            var rid: Int64 = 0
            if stall(broker, forSeconds: 2.5, withinMs: limitMs, of: mark, then: { rid = device.send(Op.keepalive) }) {
                return (rid, device.answer(to: rid))
            }
            device.hangUp()
            #expect(await poll { (try? await broker.broker.onLoopAsync { $0.connectionCount() }) == 0 })
        }
        Issue.record("no stall began within the limit in \(Self.attempts) attempts")
        return nil
    }

    /// Stalls the broker's loop for `seconds`, and runs `send` once the stall has begun. True if
    /// it began while the broker's one connection was within `limitMs` of its `mark` (when it
    /// was opened, or last heard from).
    private func stall(_ broker: InProcessBroker, forSeconds seconds: Double, withinMs limitMs: UInt64,
                       of mark: KeyPath<ClientConnection, UInt64> & Sendable, then send: () -> Void) -> Bool {
        let began = DispatchSemaphore(value: 0)
        let withinLimit = Locked(false)
        broker.loop.execute {
            let now = broker.loop.monotonicNowMs()
            let within = broker.broker.onLoop { broker in
                broker.connections.values.first.map { now &- $0[keyPath: mark] < limitMs } ?? false
            }
            withinLimit.withLock { $0 = within }
            began.signal()
            if within { Thread.sleep(forTimeInterval: seconds) }
        }
        began.wait()
        guard withinLimit.withLock({ $0 }) else { return false }
        send()
        return true
    }
}

extension Broker {
    func connectionCount() -> Int { connections.count }
}

/// One blocking TCP socket to the broker that sends requests and reads their answers.
private final class BlockingSocket {
    private let fd: Int32
    private var nextRid: Int64 = 1
    private var decoder = FrameDecoder(maxFrameBytes: 1 << 20)
    private var received: [ServerMessage] = []

    init(port: Int) throws {
        fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = UInt16(port).bigEndian
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) == 0
            }
        }
        guard connected else {
            close(fd)
            throw POSIXError(.ECONNREFUSED)
        }
        // A guard against a hang, not a timing assertion.
        var timeout = timeval(tv_sec: 30, tv_usec: 0)
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
    }

    deinit { close(fd) }

    func hangUp() { shutdown(fd, Int32(SHUT_RDWR)) }

    /// Sends a request; returns its rid.
    @discardableResult
    func send(_ op: String, _ fields: JSONObject = [:]) -> Int64 {
        var body = fields
        body["op"] = .string(op)
        body["rid"] = .int(nextRid)
        defer { nextRid += 1 }
        let frame = FrameEncoder.frame(.object(body))
        _ = frame.withUnsafeBytes { Foundation.send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
        return nextRid
    }

    /// The answer to `rid` (events before it are passed over), or nil if the connection ended first.
    func answer(to rid: Int64) -> ServerMessage? {
        while let message = receive() {
            switch message {
            case .ok(let answered, _) where answered == rid: return message
            case .error(let answered, _) where answered == rid: return message
            default: continue
            }
        }
        return nil
    }

    /// The next whole frame, or nil if the connection ended (or nothing came) before one did.
    func receive() -> ServerMessage? {
        var buffer = [UInt8](repeating: 0, count: 65_536)
        while received.isEmpty {
            let count = buffer.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
            guard count > 0 else { return nil }
            try? buffer.withUnsafeBytes { bytes in
                try decoder.feed(UnsafeRawBufferPointer(rebasing: bytes[..<count])) { body in
                    if let message = try? ServerMessage.parse(body) { received.append(message) }
                    return true
                }
            }
        }
        return received.removeFirst()
    }
}
