import Foundation
import Glibc
import LifeSignalProtocol

/// Bytes on a socket, with no client library in between: for testing the broker's answers
/// to exactly what a device sends.
final class RawConnection {
    private let socket: TestSocket
    private var decoder = FrameDecoder(maxFrameBytes: 16 * 1024 * 1024)
    private var received: [ServerMessage] = []
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
        socket = try TestSocket(host: host, port: port, receiveBuffer: receiveBuffer, source: source,
                                receiveTimeoutMs: 100)
    }

    /// Ends the connection as a device going away does (the descriptor is closed at deinit).
    func hangUp() { socket.hangUp() }

    func sendBytes(_ bytes: [UInt8]) { socket.send(bytes) }

    func sendFrame(_ object: JSONValue) { sendBytes(FrameEncoder.frame(object)) }

    /// Sends a request with the next rid and returns that rid.
    @discardableResult
    func send(_ op: String, _ fields: JSONObject = [:]) -> Int64 {
        let request = socket.request(op, fields)
        sendBytes(request.frame)
        return request.rid
    }

    /// Sends requests back to back in one write (pipelined, most likely read by the broker in one
    /// go) and returns their rids.
    func sendPipelined(_ requests: [(op: String, fields: JSONObject)]) -> [Int64] {
        var bytes: [UInt8] = []
        var rids: [Int64] = []
        for (op, fields) in requests {
            let request = socket.request(op, fields)
            rids.append(request.rid)
            bytes += request.frame
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
        let count = socket.receiveFrames(into: &decoder) { body in
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
