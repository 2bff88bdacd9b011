import Foundation
import Glibc
import LifeSignalProtocol

/// One socket to a broker that keeps every frame as the JSON the broker sent (answers, events,
/// snapshots, in arrival order), for the differential test: nothing is parsed into documents, so
/// no field the broker sends can be lost before the two engines' transcripts are compared.
final class DiffWire {
    private let socket: TestSocket
    private var decoder = FrameDecoder(maxFrameBytes: 16 * 1024 * 1024)
    /// Frames read and not yet taken.
    private var queue: [JSONObject] = []
    private(set) var isClosed = false
    /// The highest seq this socket was sent (an event's, or a snapshot's).
    private(set) var lastSeq: Int64 = 0
    /// Whether a snapshot came (a hello's catch-up is one snapshot, or events).
    private(set) var sawSnapshot = false

    init(port: Int) throws {
        socket = try TestSocket(port: port, receiveTimeoutMs: 50)
    }

    /// A hello with `resume` answered: the device holds everything up to it.
    func resumed(at seq: Int64) { lastSeq = max(lastSeq, seq) }

    /// Goes away as a device whose network drops does.
    func hangUp() { socket.hangUp() }

    /// Sends a request and returns its rid.
    @discardableResult
    func send(_ op: String, _ fields: JSONObject = [:]) -> Int64 {
        let request = socket.request(op, fields)
        socket.send(request.frame)
        return request.rid
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
        let count = socket.receiveFrames(into: &decoder) { body in
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

}
