import Foundation
import LifeSignalProtocol

#if canImport(Glibc)
import Glibc
#endif

/// A scripted stand-in for the broker on a loopback port: each accepted connection is handed, on its
/// own thread, to the next script. Blocking sockets keep the scripts linear and readable.
final class FakeBroker: Sendable {
    typealias Script = @Sendable (FakeConnection) throws -> Void

    let port: Int
    private let listener: Int32

    /// Serves one script per connection, in order; connections beyond the scripts are closed.
    /// `port` 0 picks a free one; another is for a broker that comes back where a client expects it.
    convenience init(port requested: Int = 0, scripts: [Script]) throws {
        let (listener, port) = try Self.bindLoopback(port: requested)
        try self.init(listener: listener, port: port, scripts: scripts)
    }

    /// Starts listening on a port held closed so far: a broker started where a client already tries.
    convenience init(listeningOn closed: ClosedPort, scripts: [Script]) throws {
        try self.init(listener: dup(closed.fd), port: closed.port, scripts: scripts)
    }

    private init(listener: Int32, port: Int, scripts: [Script]) throws {
        guard listener >= 0, listen(listener, 16) == 0 else {
            Glibc.close(listener)
            throw FakeBrokerError("bind/listen failed")
        }
        self.listener = listener
        self.port = port
        Thread.detachNewThread {
            for script in scripts {
                let fd = accept(listener, nil, nil)
                guard fd >= 0 else { return }
                let connection = FakeConnection(fd: fd)
                Thread.detachNewThread {
                    do {
                        try script(connection)
                    } catch {
                        // The client hung up early; the test's own expectations report what matters.
                    }
                    connection.close()
                }
            }
        }
    }

    /// A TCP socket bound to `port` (0: a free one) on loopback, not listening; and its port.
    static func bindLoopback(port requested: Int) throws -> (fd: Int32, port: Int) {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw FakeBrokerError("socket failed") }
        var reuse: Int32 = 1
        setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &reuse, socklen_t(MemoryLayout<Int32>.size))
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = UInt16(requested).bigEndian
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { address in
                bind(fd, address, length) == 0 && getsockname(fd, address, &length) == 0
            }
        }
        guard bound else {
            Glibc.close(fd)
            throw FakeBrokerError("bind/listen failed")
        }
        return (fd, Int(UInt16(bigEndian: address.sin_port)))
    }

    /// Greets (with a snapshot, when given) and stays connected until the client leaves.
    static func greetsAndStays(lastSeq: Int64 = 10, snapshot: Snapshot? = nil) -> Script {
        { connection in
            try connection.greet(lastSeq: lastSeq, snapshot: snapshot)
            connection.waitForClose()
        }
    }

    /// Stops accepting; a pending accept returns.
    func stop() {
        shutdown(listener, Int32(SHUT_RDWR))
        Glibc.close(listener)
    }
}

/// A loopback port held bound and not listening: a connect there is refused at once, and no other
/// socket (another test's listener, an outgoing connection's ephemeral port) can take it while this
/// lives, as one closed and given back could be. `FakeBroker(listeningOn:)` opens it later.
final class ClosedPort: Sendable {
    let port: Int
    fileprivate let fd: Int32

    init() throws {
        (fd, port) = try FakeBroker.bindLoopback(port: 0)
    }

    deinit { Glibc.close(fd) }
}

struct FakeBrokerError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}

/// One accepted connection, read and written in frames.
final class FakeConnection: Sendable {
    private let fd: Int32

    init(fd: Int32) {
        self.fd = fd
    }

    /// The next request, as an object.
    func read() throws -> JSONObject {
        let header = try readExactly(4)
        let length = Int(header[0]) << 24 | Int(header[1]) << 16 | Int(header[2]) << 8 | Int(header[3])
        guard let object = try JSONValue.parse(readExactly(length)).objectValue else {
            throw FakeBrokerError("request is not an object")
        }
        return object
    }

    /// Reads a request and checks its op. Keepalives before it are answered as the broker would:
    /// the client sends one whenever it has sent nothing for heartbeatMs / 2, which a slow run
    /// (sanitizers, a busy machine) can make happen between any two requests of a script.
    func read(op: String) throws -> JSONObject {
        var request = try read()
        while op != Op.keepalive, try answeredKeepalive(request) { request = try read() }
        guard request["op"]?.stringValue == op else {
            throw FakeBrokerError("expected \(op), got \(request)")
        }
        return request
    }

    func send(_ object: JSONValue) throws {
        try write(FrameEncoder.frame(object))
    }

    func ok(_ request: JSONObject, _ fields: JSONObject = [:]) throws {
        var object: JSONObject = ["op": "ok", "rid": request["rid"] ?? .null]
        for (key, value) in fields { object[key] = value }
        try send(.object(object))
    }

    func error(rid: JSONValue?, _ error: ProtocolError) throws {
        var object: JSONObject = ["op": "error", "code": .string(error.code.rawValue), "message": .string(error.message)]
        if let rid { object["rid"] = rid }
        try send(.object(object))
    }

    func event(seq: Int64, _ name: String, _ data: JSONValue) throws {
        try send(["op": "event", "seq": .int(seq), "event": .string(name), "data": data])
    }

    /// Answers `hello` and sends the catch-up: a snapshot when `snapshot` is given, else `events`.
    /// Returns the hello request so the test can check its `resume`.
    @discardableResult
    func greet(lastSeq: Int64, snapshot: Snapshot? = nil, heartbeatMs: Int64 = 30_000) throws -> JSONObject {
        let hello = try read(op: "hello")
        var fields = Fixtures.helloFields(lastSeq: lastSeq)
        fields["heartbeatMs"] = .int(heartbeatMs)
        try ok(hello, fields)
        if let snapshot { try send(snapshot.json) }
        return hello
    }

    /// Blocks until the client closes its side, answering its keepalives meanwhile (else it would
    /// drop a broker silent for 2 × heartbeatMs and reconnect).
    func waitForClose() {
        do {
            while true { _ = try answeredKeepalive(read()) }
        } catch {
            // Closed: what this waits for.
        }
    }

    /// Answers `request` if it is a keepalive; says whether it was.
    private func answeredKeepalive(_ request: JSONObject) throws -> Bool {
        guard request["op"]?.stringValue == Op.keepalive else { return false }
        try ok(request, ["serverTime": 1])
        return true
    }

    func close() {
        shutdown(fd, Int32(SHUT_RDWR))
        Glibc.close(fd)
    }

    private func readExactly(_ count: Int) throws -> [UInt8] {
        var bytes = [UInt8](repeating: 0, count: count)
        var offset = 0
        while offset < count {
            let received = bytes.withUnsafeMutableBytes { recv(fd, $0.baseAddress! + offset, count - offset, 0) }
            guard received > 0 else { throw FakeBrokerError("connection closed") }
            offset += received
        }
        return bytes
    }

    private func write(_ bytes: [UInt8]) throws {
        var offset = 0
        while offset < bytes.count {
            let sent = bytes.withUnsafeBytes {
                Glibc.send(fd, $0.baseAddress! + offset, bytes.count - offset, Int32(MSG_NOSIGNAL))
            }
            guard sent > 0 else { throw FakeBrokerError("send failed") }
            offset += sent
        }
    }
}
