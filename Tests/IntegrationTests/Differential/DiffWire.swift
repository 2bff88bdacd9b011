import Foundation
import Glibc
import LifeSignalProtocol

/// One socket to a broker that keeps every frame as the JSON the broker sent (answers, events,
/// snapshots, in arrival order), for the differential test: nothing is parsed into documents, so
/// no field the broker sends can be lost before the two engines' transcripts are compared.
final class DiffWire {
    private let fd: Int32
    private var decoder = FrameDecoder(maxFrameBytes: 16 * 1024 * 1024)
    /// Frames read and not yet taken.
    private var queue: [JSONObject] = []
    private var nextRid: Int64 = 1
    private(set) var isClosed = false
    /// The highest seq this socket was sent (an event's, or a snapshot's).
    private(set) var lastSeq: Int64 = 0
    /// Whether a snapshot came (a hello's catch-up is one snapshot, or events).
    private(set) var sawSnapshot = false

    init(port: Int) throws {
        fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw WireError.socket(errno) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        inet_pton(AF_INET, "127.0.0.1", &address.sin_addr)
        let result = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        guard result == 0 else { close(fd); throw WireError.connect(errno) }
        var timeout = timeval(tv_sec: 0, tv_usec: 50_000)
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
    }

    deinit { close(fd) }

    /// A hello with `resume` answered: the device holds everything up to it.
    func resumed(at seq: Int64) { lastSeq = max(lastSeq, seq) }

    /// Goes away as a device whose network drops does.
    func hangUp() { Glibc.shutdown(fd, Int32(SHUT_RDWR)) }

    /// Sends a request and returns its rid.
    @discardableResult
    func send(_ op: String, _ fields: JSONObject = [:]) -> Int64 {
        var body = fields
        body["op"] = .string(op)
        body["rid"] = .int(nextRid)
        defer { nextRid += 1 }
        let bytes = FrameEncoder.frame(.object(body))
        var offset = 0
        while offset < bytes.count {
            let sent = bytes[offset...].withUnsafeBytes { Glibc.send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            if sent <= 0 { break }
            offset += sent
        }
        return nextRid
    }

    /// Reads until the answer to `rid` arrives; returns it and every frame before it (in order).
    func until(answerTo rid: Int64, timeout: Duration = .seconds(15)) -> (answer: JSONObject?, before: [JSONObject]) {
        let deadline = ContinuousClock.now + timeout
        var before: [JSONObject] = []
        while true {
            while !queue.isEmpty {
                let frame = queue.removeFirst()
                if frame["rid"]?.intValue == rid, ["ok", "error"].contains(frame["op"]?.stringValue) {
                    return (frame, before)
                }
                before.append(frame)
            }
            guard ContinuousClock.now < deadline, readOnce() else {
                before += queue
                queue = []
                return (nil, before)
            }
        }
    }

    /// Every frame that arrives until `done` says so about the frames so far, or the time is up.
    func take(until done: (DiffWire) -> Bool, timeout: Duration = .seconds(15)) -> [JSONObject] {
        let deadline = ContinuousClock.now + timeout
        while !done(self), ContinuousClock.now < deadline, readOnce() {}
        defer { queue = [] }
        return queue
    }

    /// Reads what is there (up to the socket timeout). False once the peer has closed.
    private func readOnce() -> Bool {
        let count = receiveFrames(from: fd, into: &decoder) { body in
            guard case .object(let frame)? = try? JSONValue.parse(body) else { return }
            if let seq = frame["seq"]?.intValue, ["event", "snapshot"].contains(frame["op"]?.stringValue) {
                lastSeq = max(lastSeq, seq)
                if frame["op"]?.stringValue == "snapshot" { sawSnapshot = true }
            }
            queue.append(frame)
        }
        guard count != nil else {
            isClosed = true
            return false
        }
        return true
    }

    enum WireError: Error { case socket(Int32), connect(Int32) }
}
