import Foundation
@testable import LifeSignalBroker
import LifeSignalProtocol
import LifeSignalUV
import Testing

/// A broker whose loop was late (stalled, or starved of CPU beside other work) must not close a
/// connection for silence when what the device sent is waiting unread in the broker's own socket:
/// the hello timeout and the heartbeat judge a connection by what the loop could have heard.
@Suite(.timeLimit(.minutes(2)))
struct LoopStallTests {
    @Test func aRegisterSentWhileTheLoopWasStalledIsAnsweredNotTimedOut() async throws {
        let broker = try InProcessBroker { $0.helloTimeoutMs = 100 }
        defer { broker.stop() }
        let device = try BlockingSocket(port: broker.port)
        #expect(await poll { await broker.broker.connectionCount() == 1 })

        // The loop stalls for three hello timeouts; the register arrives at its start.
        let stalled = DispatchSemaphore(value: 0)
        broker.loop.execute {
            stalled.signal()
            Thread.sleep(forTimeInterval: 0.3)
        }
        stalled.wait()
        let rid = device.send(Op.register, ["name": "Alice"])

        let answer = try #require(device.answer(to: rid))
        guard case .ok(_, let fields) = answer else {
            Issue.record("register answered \(answer)")
            return
        }
        #expect(fields["token"]?.stringValue != nil)
    }

    @Test func aKeepaliveSentWhileTheLoopWasStalledKeepsTheDeviceConnected() async throws {
        let broker = try InProcessBroker { $0.heartbeatMs = 100 }
        defer { broker.stop() }
        let device = try BlockingSocket(port: broker.port)
        guard case .ok(_, let registered) = try #require(device.answer(to: device.send(Op.register, ["name": "Alice"]))),
              let user = registered["user"]?.objectValue?["id"]?.stringValue,
              let token = registered["token"]?.stringValue else {
            Issue.record("register failed")
            return
        }
        let hello = device.send(Op.hello, ["version": 1, "user": .string(user), "token": .string(token), "device": "phone"])
        guard case .ok = try #require(device.answer(to: hello)) else {
            Issue.record("hello failed")
            return
        }

        // The loop stalls for three silence limits (2 × heartbeat); a keepalive arrives at its start.
        let stalled = DispatchSemaphore(value: 0)
        broker.loop.execute {
            stalled.signal()
            Thread.sleep(forTimeInterval: 0.6)
        }
        stalled.wait()
        let keepalive = device.send(Op.keepalive)
        guard case .ok = try #require(device.answer(to: keepalive)) else {
            Issue.record("the keepalive was not answered")
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
