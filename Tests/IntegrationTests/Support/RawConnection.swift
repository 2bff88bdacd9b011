import Foundation
import Glibc
import LifeSignalProtocol

/// Bytes on a socket, with no client library in between: for testing the broker's answers
/// to exactly what a device sends.
final class RawConnection {
    private let fd: Int32
    private var decoder = FrameDecoder(maxFrameBytes: 16 * 1024 * 1024)
    private var received: [ServerMessage] = []
    private var nextRid: Int64 = 1
    /// The broker's port this connection went to (on a test cluster, the one it was dealt).
    let port: Int
    /// The user this connection said hello as (set by `hello`), and the last seq it was sent
    /// (by an event or a snapshot): what settling on a cluster waits for.
    var userID: String?
    private(set) var lastSeq: Int64 = 0

    /// `receiveBuffer` shrinks the kernel's receive buffer (set before connecting), for a reader
    /// that falls behind quickly. `source` binds the local end to another loopback address
    /// (127.0.0.2…), to look like another host.
    init(port: Int, host: String = "127.0.0.1", receiveBuffer: Int32? = nil, source: String? = nil) throws {
        let port = ClusterSpread.deal(port)
        self.port = port
        fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw RawError.socket(errno) }
        if var size = receiveBuffer {
            setsockopt(fd, SOL_SOCKET, SO_RCVBUF, &size, socklen_t(MemoryLayout<Int32>.size))
        }
        if let source {
            var local = sockaddr_in()
            local.sin_family = sa_family_t(AF_INET)
            inet_pton(AF_INET, source, &local.sin_addr)
            let bound = withUnsafePointer(to: &local) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                    bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
                }
            }
            guard bound == 0 else { close(fd); throw RawError.connect(errno) }
        }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        inet_pton(AF_INET, host, &address.sin_addr)
        let result = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        guard result == 0 else { close(fd); throw RawError.connect(errno) }
        setReceiveTimeout(milliseconds: 100)
    }

    deinit { close(fd) }

    /// Ends the connection as a device going away does (the descriptor is closed at deinit).
    func hangUp() { Glibc.shutdown(fd, Int32(SHUT_RDWR)) }

    func sendBytes(_ bytes: [UInt8]) {
        var offset = 0
        while offset < bytes.count {
            let sent = bytes[offset...].withUnsafeBytes { Glibc.send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            if sent <= 0 { return }
            offset += sent
        }
    }

    func sendFrame(_ object: JSONValue) { sendBytes(FrameEncoder.frame(object)) }

    /// Sends a request with the next rid and returns that rid.
    @discardableResult
    func send(_ op: String, _ fields: JSONObject = [:]) -> Int64 {
        var body = fields
        body["op"] = .string(op)
        body["rid"] = .int(nextRid)
        defer { nextRid += 1 }
        sendFrame(.object(body))
        return nextRid
    }

    /// Sends requests back to back in one write (pipelined, most likely read by the broker in one
    /// go) and returns their rids.
    func sendPipelined(_ requests: [(op: String, fields: JSONObject)]) -> [Int64] {
        var bytes: [UInt8] = []
        var rids: [Int64] = []
        for (op, fields) in requests {
            var body = fields
            body["op"] = .string(op)
            body["rid"] = .int(nextRid)
            rids.append(nextRid)
            nextRid += 1
            bytes += FrameEncoder.frame(.object(body))
        }
        sendBytes(bytes)
        return rids
    }

    /// The next `count` responses (ok or error) in the order they came; events are dropped.
    func responses(_ count: Int, timeout: Duration = .seconds(10)) -> [ServerMessage] {
        var found: [ServerMessage] = []
        while found.count < count, let message = next(timeout: timeout) {
            if message.isResponse { found.append(message) }
        }
        return found
    }

    /// Whether events read off the socket wait in the queue (not yet taken by `next()`).
    var hasQueuedEvents: Bool {
        received.contains { if case .event = $0 { true } else { false } }
    }

    /// The next message from the broker, or nil if none arrives in time or the socket closed.
    func next(timeout: Duration = .seconds(10)) -> ServerMessage? {
        let deadline = ContinuousClock.now + timeout
        while received.isEmpty && ContinuousClock.now < deadline {
            guard readOnce() else { break }
        }
        return received.isEmpty ? nil : received.removeFirst()
    }

    /// Sends a request and returns its response (ok or error), skipping events.
    func request(_ op: String, _ fields: JSONObject = [:]) -> ServerMessage? {
        let rid = send(op, fields)
        return response(to: rid)
    }

    /// Waits for the response to `rid`; events and other responses that arrive first stay
    /// queued for `next()`, in order.
    func response(to rid: Int64, timeout: Duration = .seconds(10)) -> ServerMessage? {
        let deadline = ContinuousClock.now + timeout
        while true {
            if let index = received.firstIndex(where: { $0.rid == rid && $0.isResponse }) {
                return received.remove(at: index)
            }
            guard ContinuousClock.now < deadline, readOnce() else {
                if let index = received.firstIndex(where: { $0.rid == rid && $0.isResponse }) {
                    return received.remove(at: index)
                }
                return nil
            }
        }
    }

    /// True if the broker closes the socket within `timeout` (messages before the close are kept).
    func waitForClose(timeout: Duration = .seconds(10)) -> Bool {
        let deadline = ContinuousClock.now + timeout
        while ContinuousClock.now < deadline {
            if !readOnce() { return isClosed }
        }
        return false
    }

    private(set) var isClosed = false
    /// Every byte read from the broker so far.
    private(set) var receivedBytes = 0

    /// Reads what is there (waiting up to the socket timeout). False once the peer has closed.
    private func readOnce() -> Bool {
        let count = receiveFrames(from: fd, into: &decoder) { body in
            guard let message = try? ServerMessage.parse(body) else { return }
            switch message {
            case .event(let seq, _, _): lastSeq = max(lastSeq, seq)
            case .snapshot(let snapshot): lastSeq = snapshot.seq
            default: break
            }
            received.append(message)
        }
        guard let count else {
            isClosed = true
            return false
        }
        receivedBytes += count
        return true
    }

    private func setReceiveTimeout(milliseconds: Int) {
        var timeout = timeval(tv_sec: milliseconds / 1000, tv_usec: (milliseconds % 1000) * 1000)
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
    }

    enum RawError: Error { case socket(Int32), connect(Int32) }
}

extension ServerMessage {
    var errorCode: ProtocolError.Code? {
        if case .error(_, let error) = self { error.code } else { nil }
    }
    var okFields: JSONObject? {
        if case .ok(_, let fields) = self { fields } else { nil }
    }
    var isResponse: Bool {
        switch self {
        case .ok, .error: true
        default: false
        }
    }
    var rid: Int64? {
        switch self {
        case .ok(let rid, _), .error(let rid, _): rid
        default: nil
        }
    }
}
